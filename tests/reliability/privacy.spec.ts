import { expect, test } from '@playwright/test';
import { startFakeOpenAi } from '../fixtures/fake-openai-server';
import { call, configureModel, open, sendChat } from '../e2e/helpers';

/**
 * Issue 13, reliability suite — privacy: every request the app makes during a scripted session (chat with a scripted
 * OpenAI-compatible server on 127.0.0.1, a memory, recall, writing, settings, backup exports) is logged. Only the
 * app's origin and the configured model endpoint may be reached; the API key appears in no export, console line,
 * error text or the database file; the memory's text appears in no console line (it is, of course, in the database
 * and in the user's own export).
 */
const API_KEY = 'sk-reliability-KEY-9f3c1e77';
const MEMORY = 'Private note: my locker code is zebra-4471';

test('a scripted session reaches only the app and the model endpoint; the key is in no export, log or database file', async ({ page, context, baseURL }) => {
  const server = await startFakeOpenAi({ models: ['test-model'] });
  try {
    server.setReplies((req) =>
      (req.body as { stream?: boolean }).stream ? { chunks: ['Noted, ', 'I will remember.'] } : { json: { memory_updates: [] } },
    );
    const requests = new Map<string, number>();
    const urls: string[] = [];
    context.on('request', (r) => {
      const url = r.url();
      urls.push(url);
      const origin = /^(https?|wss?):/.test(url) ? new URL(url).origin : url.split(':')[0] + ':';
      requests.set(origin, (requests.get(origin) ?? 0) + 1);
    });
    const consoleText: string[] = [];
    page.on('console', (m) => consoleText.push(m.text()));
    page.on('pageerror', (e) => consoleText.push(`${e.message} ${e.stack ?? ''}`));

    await configureModel(page, { baseUrl: server.url, model: 'test-model', apiKey: API_KEY });
    await open(page, '/chat');
    await sendChat(page, `Please remember this. ${MEMORY}`);
    await expect(page.getByTestId('message').filter({ hasText: 'I will remember.' })).toBeVisible({ timeout: 30_000 });
    await call(page, 'memory.create', { content: MEMORY });
    const recalled = await call<unknown>(page, 'memory.retrieve', { query: 'locker code' });
    expect(JSON.stringify(recalled)).toContain('zebra-4471');
    await call(page, 'recall.search', { query: 'locker' });
    await open(page, '/recall');
    await open(page, '/memory');
    await expect(page.getByText('zebra-4471').first()).toBeVisible();
    const project = await call<{ id: string }>(page, 'project.create', { name: 'Privacy novel' });
    await call(page, 'document.create', { projectId: project.id, title: 'Chapter 1', content: 'The locker stayed shut.' });
    await open(page, '/write');
    await call(page, 'settings.update', { patch: {} });
    await open(page, '/settings/model');
    // A call that fails: its error text must not carry the key either.
    const failed = await page.evaluate(async () => {
      const e = (globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<unknown> } }).engram;
      return JSON.stringify(await e.call('memory.get', { id: 'missing' }));
    });

    // Exports: the JSON backup, the Markdown export and the database file.
    const exported = await page.evaluate(async () => {
      const e = (globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<{ ok: boolean; data: never }> } }).engram;
      const begin = (await e.call('backup.exportBegin', { scope: { kind: 'all' } })).data as { exportId: string };
      let json = '';
      for (;;) {
        const chunk = (await e.call('backup.exportChunk', { exportId: begin.exportId })).data as { text: string; done: boolean };
        json += chunk.text;
        if (chunk.done) break;
      }
      const md = (await e.call('export.markdown', { scope: { kind: 'memories' } })).data as { text: string };
      const db = (await e.call('backup.exportDbFile', {})).data as { file: Blob };
      const bytes = new Uint8Array(await db.file.arrayBuffer());
      // The database file as Latin-1 text: every byte kept, so an ASCII key would show as itself.
      let dbText = '';
      for (let i = 0; i < bytes.length; i += 65_536) dbText += String.fromCharCode(...bytes.subarray(i, i + 65_536));
      return { json, md: md.text, dbText, dbBytes: bytes.length };
    });
    const appOrigin = new URL(baseURL as string).origin;
    const modelOrigin = new URL(server.url).origin;
    const foreign = [...requests.keys()].filter((o) => o !== appOrigin && o !== modelOrigin && o !== 'blob:' && o !== 'data:');
    const leaks = {
      keyInJsonExport: exported.json.includes(API_KEY),
      keyInMarkdown: exported.md.includes(API_KEY),
      keyInDbFile: exported.dbText.includes(API_KEY),
      keyInConsole: consoleText.some((t) => t.includes(API_KEY)),
      keyInErrorText: failed.includes(API_KEY),
      memoryInConsole: consoleText.some((t) => t.includes('zebra-4471')),
      keyInUrls: urls.some((u) => u.includes(API_KEY)),
    };
    const modelCalls = server.requests.length;
    console.log(
      `[reliability] privacy: requests per origin ${[...requests.entries()].map(([o, n]) => `${o} ${n}`).join(', ')}; ` +
        `${foreign.length} foreign origins; model server saw ${modelCalls} requests; key found in ` +
        `${Object.entries(leaks).filter(([, v]) => v).map(([k]) => k).join(', ') || 'nothing'} ` +
        `(checked JSON export ${exported.json.length} chars, Markdown export ${exported.md.length}, database file ${exported.dbBytes} bytes, ` +
        `${consoleText.length} console lines, 1 error text); memory text in the export: ${exported.json.includes('zebra-4471')}, in the database file: ${exported.dbText.includes('zebra-4471')}`,
    );
    expect(foreign).toEqual([]);
    expect(requests.get(modelOrigin) ?? 0).toBeGreaterThan(0);
    expect(leaks).toEqual({ keyInJsonExport: false, keyInMarkdown: false, keyInDbFile: false, keyInConsole: false, keyInErrorText: false, memoryInConsole: false, keyInUrls: false });
    // The checks looked where the data is: the memory is in the export and the database file.
    expect(exported.json).toContain('zebra-4471');
    expect(exported.dbText).toContain('zebra-4471');
    expect(exported.md).toContain('zebra-4471');
    // The key was really used: the model server received it.
    expect(JSON.stringify(server.requests.map((r) => r.headers))).toContain(API_KEY);
  } finally {
    await server.close();
  }
});
