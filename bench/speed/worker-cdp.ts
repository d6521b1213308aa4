import type { CDPSession } from '@playwright/test';

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
