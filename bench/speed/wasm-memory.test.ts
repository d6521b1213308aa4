import { Session } from 'node:inspector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorIndex } from '../../src/lib/domain/embeddings/vector-index';
import { wasmMemoryBytes, type ProtocolSend } from './wasm-memory';

/**
 * The vector-search worker's memory reading (vectors-run.ts, worker-heap.ts): the rows of its indexes live in the dot
 * kernel's WebAssembly memory, outside the JS heap and its ArrayBuffers. Read here on this isolate through
 * node:inspector with the same protocol calls the bench sends to the worker.
 */
describe('the worker memory reading counts the dot kernel’s wasm memory', () => {
  const session = new Session();
  const send: ProtocolSend = (method, params) =>
    new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve((result ?? {}) as Record<string, unknown>))));
  beforeAll(() => session.connect());
  afterAll(() => session.disconnect());

  it('an index of 20,000 rows at 384 dimensions adds its kernel memory (≈ 7.7 MB) to the reading', async () => {
    const before = await wasmMemoryBytes(send);
    expect(before).not.toBeNull();
    const dims = 384;
    const rows = 20_000;
    const index = new VectorIndex(dims, rows);
    // Where this runtime has wasm SIMD the rows live in the kernel's memory: [question i16 × dims][rows], whole pages.
    expect(index.simd).toBe(true);
    const kernelBytes = Math.ceil((dims * 2 + dims * rows) / 65536) * 65536;
    const after = await wasmMemoryBytes(send);
    expect(after!.memories).toBe(before!.memories + 1);
    expect(after!.bytes - before!.bytes).toBe(kernelBytes);
    expect(index.size).toBe(0);
  });

  it('counts every memory: a second, larger index adds its own', async () => {
    const before = await wasmMemoryBytes(send);
    const small = new VectorIndex(128, 4096);
    const large = new VectorIndex(768, 50_000);
    const after = await wasmMemoryBytes(send);
    expect(after!.memories - before!.memories).toBe(2);
    const pages = (dims: number, rows: number) => Math.ceil((dims * 2 + dims * rows) / 65536) * 65536;
    expect(after!.bytes - before!.bytes).toBe(pages(128, 4096) + pages(768, 50_000));
    expect([small.simd, large.simd]).toEqual([true, true]);
  });
});
