import type { CDPSession } from '@playwright/test';
import { wasmMemoryBytes, type ProtocolSend } from './wasm-memory';

/**
 * The DB worker's JS heap. `performance.memory` does not exist in a worker, so V8's used/total heap comes over the
 * Chrome DevTools Protocol: a browser-level CDP session attaches to the worker target in non-flat mode (Playwright
 * keeps the flat one) and calls Runtime.getHeapUsage after HeapProfiler.collectGarbage, then sums the worker's
 * WebAssembly memories (wasm-memory.ts: neither heap nor ArrayBuffers count them). sqlite-wasm's own figures come
 * from the worker itself (DbWorkerApi.sqliteMemory, engine/store/sqlite-memory.ts).
 */
export interface WorkerHeap {
  jsHeapUsed: number;
  jsHeapTotal: number;
  /** ArrayBuffer backing stores (typed arrays live outside the JS heap), when the browser reports them. */
  backingStorage?: number;
  /** Every WebAssembly.Memory the worker holds (bytes; null when it could not be read: `wasmError` says why). */
  wasmMemory: number | null;
  wasmError?: string;
}

interface Message {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

const CALL_TIMEOUT_MS = 15_000;

/**
 * `wasm`: also sum the worker's WebAssembly memories. Asked of the vector-search worker only: in the DB worker
 * Runtime.queryObjects has not answered within the timeout in any run so far (sqlite-wasm's memory is read there by
 * the worker itself instead: DbWorkerApi.sqliteMemory).
 */
export async function workerHeap(browser: CDPSession, urlIncludes: string, opts: { wasm?: boolean } = {}): Promise<WorkerHeap | null> {
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
  const send: ProtocolSend = async (method, params = {}) => {
    const id = nextId++;
    const answer = new Promise<Message>((resolve, reject) => {
      pending.set(id, resolve);
      setTimeout(() => reject(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS).unref();
    });
    await browser.send('Target.sendMessageToTarget' as never, { sessionId, message: JSON.stringify({ id, method, params }) } as never);
    const m = await answer.finally(() => pending.delete(id));
    if (m.error) throw new Error(`${method}: ${m.error.message}`);
    return m.result ?? {};
  };
  try {
    await send('HeapProfiler.collectGarbage');
    const usage = (await send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number; backingStorageSize?: number };
    const heap = { jsHeapUsed: usage.usedSize, jsHeapTotal: usage.totalSize, ...(usage.backingStorageSize !== undefined ? { backingStorage: usage.backingStorageSize } : {}) };
    if (!opts.wasm) return { ...heap, wasmMemory: null };
    // The heap figures stand on their own when the wasm memories cannot be read.
    try {
      const wasm = await wasmMemoryBytes(send);
      return { ...heap, wasmMemory: wasm?.bytes ?? null, ...(wasm ? {} : { wasmError: 'no WebAssembly in the worker' }) };
    } catch (err) {
      return { ...heap, wasmMemory: null, wasmError: err instanceof Error ? err.message : String(err) };
    }
  } finally {
    browser.off('Target.receivedMessageFromTarget' as never, onMessage as never);
    await browser.send('Target.detachFromTarget', { sessionId } as never).catch(() => undefined);
  }
}
