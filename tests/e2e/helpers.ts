import { expect, type Page } from '@playwright/test';

type CallResult = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } };

/** Calls the engine from the page, through the same client the UI uses. */
export async function call<T = unknown>(page: Page, method: string, input: unknown = {}): Promise<T> {
  const res = await page.evaluate(
    async ([m, i]) => {
      const w = globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<CallResult> } };
      return w.engram.call(m as string, i);
    },
    [method, input] as const,
  );
  if (!res.ok) throw new Error(`${method} failed: ${res.error.code} ${res.error.message}`);
  return res.data as T;
}

export async function callRaw(page: Page, method: string, input: unknown = {}): Promise<CallResult> {
  return page.evaluate(
    async ([m, i]) => {
      const w = globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<CallResult> } };
      return w.engram.call(m as string, i);
    },
    [method, input] as const,
  );
}

/** Waits until the page's engine answers (its worker is up and some tab leads). */
export async function waitForEngine(page: Page): Promise<void> {
  await expect
    .poll(async () => page.evaluate(() => Boolean((globalThis as { engram?: { connection: { ready: boolean } } }).engram?.connection.ready)), {
      timeout: 20_000,
    })
    .toBe(true);
}

export async function open(page: Page, path = '/chat'): Promise<void> {
  await page.goto(path);
  await waitForEngine(page);
}

/** Points the app at a model server through the Settings page, as a person would. */
export async function configureModel(page: Page, opts: { baseUrl: string; model: string; apiKey?: string }): Promise<void> {
  await page.goto('/settings/model');
  await waitForEngine(page);
  await page.getByTestId('model-provider').selectOption('openai-compatible');
  await page.getByTestId('model-base-url').fill(opts.baseUrl);
  await page.getByTestId('model-name').fill(opts.model);
  if (opts.apiKey) await page.getByTestId('model-api-key').fill(opts.apiKey);
  await page.getByTestId('model-save').click();
  await expect(page.getByTestId('model-save')).toBeDisabled();
}

/** Types a message in the chat composer and sends it with Enter. */
export async function sendChat(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('composer');
  await box.fill(text);
  await box.press('Enter');
}

/** The Write page with a new project and one chapter holding `text`, saved. */
export async function newProjectWithChapter(page: Page, text: string, project = '科幻短篇'): Promise<void> {
  await page.goto('/write');
  await waitForEngine(page);
  await page.getByTestId('project-create').click();
  await page.getByTestId('project-name').fill(project);
  await page.getByTestId('project-name-submit').click();
  await page.getByTestId('document-create').click();
  await page.getByTestId('editor').fill(text);
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved', { timeout: 10_000 });
}

/** Selects the first occurrence of `needle` in the chapter, as a person dragging over it would. */
export async function select(page: Page, needle: string): Promise<void> {
  await page.getByTestId('editor').evaluate((el, n) => {
    const ta = el as HTMLTextAreaElement;
    const start = ta.value.indexOf(n);
    ta.focus();
    ta.setSelectionRange(start, start + n.length);
    ta.dispatchEvent(new Event('select', { bubbles: true }));
  }, needle);
}
