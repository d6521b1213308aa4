import type { CDPSession, Page, Worker } from '@playwright/test';

/**
 * The DB worker's memory. `performance.memory` does not exist in a worker, so:
 *   jsHeap   V8's used/total heap over the Chrome DevTools Protocol: a browser-level CDP session attaches to the
 *            worker target in non-flat mode (Playwright keeps the flat one) and calls Runtime.getHeapUsage after
 *            HeapProfiler.collectGarbage.
 *   sqlite   sqlite-wasm's own figures, read from inside the worker through Playwright's worker.evaluate: before
 *            the DB worker is told to start (the harness page's ?hold), the debugger wraps sqlite-wasm's
 *            `sqlite3InitModuleState.debugModule` hook, which sqlite3InitModule() calls with the sqlite3 object;
 *            the worker's code is not changed. wasmMemory is the linear memory (page cache, statements, FTS
 *            state), memoryUsed/Highwater are sqlite3_status64(SQLITE_STATUS_MEMORY_USED).
 */
export interface WorkerHeap {
  jsHeapUsed: number;
  jsHeapTotal: number;
  /** ArrayBuffer backing stores (typed arrays live outside the JS heap), when the browser reports them. */
  backingStorage?: number;
}

export interface SqliteMemory {
  wasmMemory: number;
  memoryUsed: number;
  memoryHighwater: number;
}

interface Message {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

const CALL_TIMEOUT_MS = 15_000;

export async function workerHeap(browser: CDPSession, urlIncludes: string): Promise<WorkerHeap | null> {
  const { targetInfos } = (await browser.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
  const target = targetInfos.find((t) => t.type === 'worker' && t.url.includes(urlIncludes));
  if (!target) return null;
  const { sessionId } = (await browser.send('Target.attachToTarget', { targetId: target.targetId, flatten: false } as never)) as { sessionId: string };
  let nextId = 1;
  const pending = new Map<number, (m: Message) => void>();
  const onMessage = (e: { sessionId: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as Message;
    if (m.id !== undefined) pending.get(m.id)?.(m);
  };
  browser.on('Target.receivedMessageFromTarget' as never, onMessage as never);
  const send = async (method: string): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const answer = new Promise<Message>((resolve, reject) => {
      pending.set(id, resolve);
      setTimeout(() => reject(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS).unref();
    });
    await browser.send('Target.sendMessageToTarget' as never, { sessionId, message: JSON.stringify({ id, method, params: {} }) } as never);
    const m = await answer.finally(() => pending.delete(id));
    if (m.error) throw new Error(`${method}: ${m.error.message}`);
    return m.result ?? {};
  };
  try {
    await send('HeapProfiler.collectGarbage');
    const usage = (await send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number; backingStorageSize?: number };
    return { jsHeapUsed: usage.usedSize, jsHeapTotal: usage.totalSize, ...(usage.backingStorageSize !== undefined ? { backingStorage: usage.backingStorageSize } : {}) };
  } finally {
    browser.off('Target.receivedMessageFromTarget' as never, onMessage as never);
    await browser.send('Target.detachFromTarget', { sessionId } as never).catch(() => undefined);
  }
}

type Hooked = typeof globalThis & {
  sqlite3InitModuleState?: { debugModule: (...args: unknown[]) => void };
  __engramBenchSqlite3?: {
    wasm: { heap8(): Uint8Array; peek64(ptr: number): bigint; pstack: { call<T>(f: () => T): T; allocPtr(n: number): number[] } };
    capi: { sqlite3_status64(op: number, current: number, highwater: number, reset: number): number };
  };
};

/** Waits for the page's DB worker and hooks sqlite3InitModule before the page lets the worker start. */
export async function hookSqlite(page: Page, urlIncludes: string): Promise<Worker> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const worker = page.workers().find((w) => w.url().includes(urlIncludes));
    if (worker && (await worker.evaluate(() => 'sqlite3InitModuleState' in globalThis).catch(() => false))) {
      await worker.evaluate(() => {
        const g = globalThis as Hooked;
        const state = g.sqlite3InitModuleState;
        if (!state) return;
        const original = state.debugModule;
        state.debugModule = (...args: unknown[]) => {
          const last = args.at(-1) as Record<string, unknown> | undefined;
          if (last && typeof last === 'object' && 'capi' in last && 'wasm' in last) g.__engramBenchSqlite3 = last as never;
          original(...args);
        };
      });
      return worker;
    }
    if (Date.now() > deadline) throw new Error('the DB worker did not load its sqlite module');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function sqliteMemory(worker: Worker): Promise<SqliteMemory | null> {
  return worker.evaluate(() => {
    const s = (globalThis as Hooked).__engramBenchSqlite3;
    if (!s) return null;
    // sqlite3_status64(SQLITE_STATUS_MEMORY_USED = 0, &current, &highwater, reset = 0)
    const [used, high] = s.wasm.pstack.call(() => {
      const [current, highwater] = s.wasm.pstack.allocPtr(2) as [number, number];
      s.capi.sqlite3_status64(0, current, highwater, 0);
      return [s.wasm.peek64(current), s.wasm.peek64(highwater)];
    });
    return { wasmMemory: s.wasm.heap8().byteLength, memoryUsed: Number(used), memoryHighwater: Number(high) };
  });
}
