import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import type { BenchApi } from './page';

/**
 * The DB worker's DevTools session under a page's CDP session, non-flattened: commands go through
 * Target.sendMessageToTarget (record-profile.ts, stall-profile.ts: the worker's CPU profiler). Call before the
 * page is loaded; `attached()` says whether the worker has shown up yet.
 */
export async function dbWorkerSession(cdp: CDPSession): Promise<{ send: (method: string, params?: object) => Promise<unknown>; attached: () => boolean }> {
  let workerSession: string | null = null;
  let nextId = 1;
  const pending = new Map<number, (v: unknown) => void>();
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; title: string; url: string } }) => {
    if (e.targetInfo.type === 'worker' && /db\.worker|engram-db/.test(`${e.targetInfo.url} ${e.targetInfo.title}`)) workerSession = e.sessionId;
  });
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)!(m.error ? { error: m.error } : m.result);
      pending.delete(m.id);
    }
  });
  const send = (method: string, params: object = {}): Promise<unknown> => {
    if (!workerSession) throw new Error('no DB worker session');
    const id = nextId++;
    const answer = new Promise((r) => pending.set(id, r));
    void cdp.send('Target.sendMessageToTarget', { sessionId: workerSession, message: JSON.stringify({ id, method, params }) });
    return answer;
  };
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return { send, attached: () => workerSession !== null };
}

/**
 * The harness page at `url` booted on OPFS with its DB worker's DevTools session attached (stall-profile.ts,
 * stall-alloc.ts): the page, its CDP session, and `send` for the worker's.
 */
export async function bootWithDbWorker(context: BrowserContext, url: string): Promise<{ page: Page; cdp: CDPSession; send: (method: string, params?: object) => Promise<unknown> }> {
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  const { send, attached } = await dbWorkerSession(cdp);
  await page.goto(url);
  const boot = await page.evaluate(() => (window as unknown as { engramBench: BenchApi }).engramBench.boot());
  if (boot.storage !== 'opfs') throw new Error(`not on OPFS (${boot.storage})`);
  for (let i = 0; i < 50 && !attached(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!attached()) throw new Error('the DB worker was not attached');
  return { page, cdp, send };
}
