import { describe, expect, it } from 'vitest';
import { machineInfo } from '../lib/machine';
import { summarize } from '../lib/stats';
import { fakeVectorOfId, fakeVectorOfText } from './fake-vectors';
import { vectorsSection, workerBytesPerVector, type VectorsResult, type VectorsSize } from './vectors-report';

const lat = (ms: number) => summarize([ms, ms, ms]);

function result(o: { lexical: number; meaning: number; cached: number; bytes: number; typed?: number }): VectorsResult {
  const size: VectorsSize = {
    turns: 100_000,
    dims: 384,
    vectors_stored: 100_000,
    fill_wall_ms: 60_000,
    db_bytes_before: 1,
    db_bytes_after: 1 + o.bytes * 100_000,
    bytes_per_vector: o.bytes,
    first_meaning_recall_ms: 900,
    recall_ms: { lexical: lat(o.lexical), meaning: lat(o.meaning), lexical_repeat: lat(o.lexical), meaning_cached: lat(o.cached), ...(o.typed ? { meaning_typed: lat(o.typed) } : {}) },
    recall_p95_ratio: o.meaning / o.lexical,
    recall_p95_ratio_cached: o.cached / o.lexical,
    ...(o.typed ? { recall_p95_ratio_typed: o.typed / o.lexical } : {}),
    store_ms: { lexical: lat(5), with_vectors: lat(5) },
    store_p95_ratio: 1,
    embedded_during_store: 500,
    meaning_states: { on: 200 },
    mean_results: { lexical: 5, meaning: 5 },
    endpoint_requests: 200,
  };
  return {
    machine: { ...machineInfo(), chromium: '1' },
    config: { sizes: [100_000], dims: 384, seed: 42, queries: 100, rounds: 2, store_turns: 500, recall_limit: 5 },
    sizes: [size],
    notes: ['a note'],
    elapsed_ms: 1000,
  };
}

describe('speed harness vectors mode: the latest.md section (issue 18 goals)', () => {
  it('says which goals are met from what was measured', () => {
    const text = vectorsSection(result({ lexical: 10, meaning: 11, cached: 10.5, bytes: 450 })).join('\n');
    expect(text).toContain('100,000 turns');
    expect(text).toMatch(/recall p95 \(question embedded through the endpoint\).*×1\.1.*met/);
    expect(text).toMatch(/database bytes per turn.*\+450 B.*met/);
    expect(text).not.toContain('not met');
  });

  it('marks a recall ratio above 1.2 and more than 0.6 KB per turn as not met', () => {
    const text = vectorsSection(result({ lexical: 10, meaning: 20, cached: 11, bytes: 700 })).join('\n');
    expect(text).toMatch(/endpoint\).*×2.*\*\*not met\*\*/);
    expect(text).toMatch(/bytes per turn.*\*\*not met\*\*/);
  });

  it('gives the recall of a question embedded while typed its own row when it was measured, judged on its own', () => {
    const text = vectorsSection(result({ lexical: 10, meaning: 20, cached: 11, bytes: 450, typed: 11.5 })).join('\n');
    expect(text).toMatch(/embedded while typed.*×1\.15.*met/);
    expect(text).not.toMatch(/embedded while typed.*not met/);
    expect(vectorsSection(result({ lexical: 10, meaning: 20, cached: 11, bytes: 450 })).join('\n')).not.toContain('while typed');
  });
});

describe('speed harness vectors mode: the vector-search worker\'s memory', () => {
  const MB = 2 ** 20;
  it('counts the wasm memory with the JS heap and ArrayBuffers, per vector, and says so in latest.md', () => {
    // 100,000 vectors at 384 dims: ≈ 36.6 MiB of rows in the kernel's wasm memory beside 3 + 8 MiB of JS.
    expect(workerBytesPerVector({ jsHeap: 3 * MB, arrayBuffers: 8 * MB, wasm: 38_404_096 }, 100_000)).toBe(499.4);
    expect(workerBytesPerVector({ jsHeap: 3 * MB, arrayBuffers: 8 * MB, wasm: null }, 100_000)).toBeNull();
    const r = result({ lexical: 10, meaning: 11, cached: 10.5, bytes: 450 });
    const heaps = { js_heap_used: { db_worker: 8 * MB, vectors_worker: 3 * MB }, array_buffers: { db_worker: 1 * MB, vectors_worker: 8 * MB } };
    r.sizes[0] = { ...(r.sizes[0] as VectorsSize), ...heaps, wasm_memory: { db_worker: 20 * MB, vectors_worker: 36.6 * MB }, vectors_worker_bytes_per_vector: 499.4 };
    const text = vectorsSection(r).join('\n');
    expect(text).toContain('+ ArrayBuffers + wasm memory: DB worker 8.0 MB + 1.0 MB + 20.0 MB, vector-search worker 3.0 MB + 8.0 MB + 36.6 MB — 499.4 B per vector');
    // An older result without the wasm reading keeps its old line.
    const old = result({ lexical: 10, meaning: 11, cached: 10.5, bytes: 450 });
    old.sizes[0] = { ...(old.sizes[0] as VectorsSize), ...heaps };
    expect(vectorsSection(old).join('\n')).toContain('+ ArrayBuffers: DB worker 8.0 MB + 1.0 MB, vector-search worker 3.0 MB + 8.0 MB.');
  });
});

describe('fake vectors for the vectors mode', () => {
  const cos = (a: number[], b: number[]) => {
    let d = 0;
    let na = 0;
    let nb = 0;
    a.forEach((x, i) => ((d += x * (b[i] as number)), (na += x * x), (nb += (b[i] as number) ** 2)));
    return d / Math.sqrt(na * nb);
  };

  it('are the same for the same id or text on every call, and different for others', () => {
    expect(fakeVectorOfId(42, 384, 7)).toEqual(fakeVectorOfId(42, 384, 7));
    expect(fakeVectorOfText(42, 384, 'parseConfig 登录超时')).toEqual(fakeVectorOfText(42, 384, 'parseConfig 登录超时'));
    expect(fakeVectorOfId(42, 384, 7)).not.toEqual(fakeVectorOfId(42, 384, 8));
    expect(fakeVectorOfId(42, 384, 7)).toHaveLength(384);
  });

  it('are clustered: some pairs are near (same centre), most are not', () => {
    const vs = Array.from({ length: 200 }, (_, i) => fakeVectorOfId(42, 384, i + 1));
    const sims: number[] = [];
    for (let i = 1; i < vs.length; i++) sims.push(cos(vs[0] as number[], vs[i] as number[]));
    const near = sims.filter((s) => s > 0.35).length;
    // 64 clusters: about 1 in 64 shares vector 1's centre (cosine ≈ 0.5), the rest ≈ 0.
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(20);
  });
});
