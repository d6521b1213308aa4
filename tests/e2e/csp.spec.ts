import { expect, test } from '@playwright/test';
import { open } from './helpers';

/**
 * Issue 13 defect 5: the built app carries a Content-Security-Policy, and it holds — a script that
 * gets into the page (an inline <script>, an event handler, a javascript: link) never runs. The
 * console handle `engram` exists only where it was asked for.
 */
test.describe('Content-Security-Policy of the built app', () => {
  test('an injected inline script, event handler and javascript: link are blocked, and reported as violations', async ({ page }) => {
    await open(page);
    const policy = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-");
    expect(policy).toContain("object-src 'none'");
    // (eval itself cannot be probed from here: code Playwright evaluates is exempt from the page's policy.)
    expect(policy).not.toMatch(/[\s']unsafe-eval'/);
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    const outcome = await page.evaluate(async () => {
      const w = globalThis as unknown as { pwned?: string[] };
      w.pwned = [];
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
      const script = document.createElement('script');
      script.textContent = "globalThis.pwned.push('inline script')";
      document.body.append(script);
      const img = document.createElement('div');
      img.innerHTML = `<img src="x" onerror="globalThis.pwned.push('onerror')"><a id="jsl" href="javascript:globalThis.pwned.push('javascript: link')">x</a>`;
      document.body.append(img);
      (document.getElementById('jsl') as HTMLAnchorElement).click();
      await new Promise((r) => setTimeout(r, 500));
      return { pwned: w.pwned, violations };
    });
    expect(outcome.pwned).toEqual([]);
    expect(outcome.violations.filter((v) => v.startsWith('script-src')).length).toBeGreaterThanOrEqual(3);
  });

  test('the app itself runs under it: no violation while it starts, saves and reloads', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await open(page);
    await page.evaluate(async () => {
      const e = (globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<{ ok: boolean }> } }).engram;
      const s = (await e.call('session.create', { title: 'csp' })) as unknown as { data: { id: string } };
      await e.call('message.append', { sessionId: s.data.id, role: 'user', content: 'hello under a policy' });
    });
    await page.reload();
    await open(page, '/settings');
    expect(violations).toEqual([]);
  });

  test('without engram.devtools the built app sets no console handle', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(`${baseURL}/chat`);
    await expect(page.getByRole('navigation').first()).toBeVisible();
    // The app is up (the database worker answers the page), yet no global reaches it.
    await expect(page.locator('main')).toBeVisible();
    expect(await page.evaluate(() => 'engram' in globalThis)).toBe(false);
    await context.close();
  });
});
