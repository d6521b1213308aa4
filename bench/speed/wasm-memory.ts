/**
 * Every WebAssembly.Memory a V8 isolate holds, in bytes, read over the DevTools protocol. A wasm memory is neither
 * JS heap (Runtime.getHeapUsage's usedSize) nor counted in its ArrayBuffer backing stores, so a worker whose data
 * lives in one — the vector-search worker's rows sit in the dot kernel's memory (domain/embeddings/vector-index.ts),
 * sqlite-wasm's heap in the DB worker's — would otherwise look tens of MB smaller than it is.
 *
 * Runtime.queryObjects finds every live object whose prototype chain holds WebAssembly.Memory.prototype (it
 * collects garbage first), then each one's `buffer.byteLength` is summed inside the isolate. The same calls work on
 * a worker target through the browser's CDP session (worker-heap.ts) and on Node's own isolate (node:inspector,
 * wasm-memory.test.ts).
 */

/** One protocol call: a method and its parameters, the result. */
export type ProtocolSend = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;

interface RemoteObject {
  objectId?: string;
}

/** The bytes of every WebAssembly.Memory in the isolate, and how many there are; null where wasm is absent. */
export async function wasmMemoryBytes(send: ProtocolSend): Promise<{ bytes: number; memories: number } | null> {
  const proto = (await send('Runtime.evaluate', { expression: "typeof WebAssembly === 'object' ? WebAssembly.Memory.prototype : null", objectGroup: 'wasm-memory' })) as { result?: RemoteObject };
  const protoId = proto.result?.objectId;
  if (!protoId) return null;
  try {
    const found = (await send('Runtime.queryObjects', { prototypeObjectId: protoId, objectGroup: 'wasm-memory' })) as { objects?: RemoteObject };
    const arrayId = found.objects?.objectId;
    if (!arrayId) return null;
    const summed = (await send('Runtime.callFunctionOn', {
      objectId: arrayId,
      functionDeclaration: 'function () { let bytes = 0; for (const m of this) bytes += m.buffer.byteLength; return [bytes, this.length]; }',
      returnByValue: true,
    })) as { result?: { value?: unknown } };
    const value = summed.result?.value;
    if (!Array.isArray(value) || typeof value[0] !== 'number' || typeof value[1] !== 'number') return null;
    return { bytes: value[0], memories: value[1] };
  } finally {
    await send('Runtime.releaseObjectGroup', { objectGroup: 'wasm-memory' }).catch(() => undefined);
  }
}
