/**
 * Side-by-side A/B of the vector index's search in one Node process (issue 18's meaning-lane cost): the index as
 * it was (A: a copy of an earlier vector-index.ts, e.g. `git show <commit>:src/lib/domain/embeddings/vector-index.ts
 * > /tmp/vi-before.ts`) and as it is (B), fed the same rows, asked the same questions in alternating rounds.
 * Reports CPU ms per search (process.cpuUsage: on a loaded machine the wall time also holds waiting for a core)
 * and each one's agreement with the exact search (share of the exact top k it returns) on three data sets:
 *   clustered — the speed bench's stand-in embeddings (fake-vectors.ts: 64 centres, cosine to the centre ≈ 0.7);
 *   random    — uniformly random directions and random questions (the worst case: no neighbour is near);
 *   near      — uniformly random directions, each question near a stored one (as a paraphrase is near what was said).
 *
 *   npx tsx bench/speed/vector-search-ab.ts --before /tmp/vi-before.ts [--rows 100500] [--dims 384] [--rounds 6]
 *   npx tsx bench/speed/vector-search-ab.ts --before js    A: today's index with exact scoring in JS (no SIMD kernel)
 */
import { quantise } from '../../src/lib/domain/embeddings/quantise';
import { VectorIndex as After } from '../../src/lib/domain/embeddings/vector-index';
import { createPrng } from '../lib/prng';
import { fakeVectorOfId, fakeVectorOfText } from './fake-vectors';

interface Searchable {
  set(id: number, v: Int8Array): void;
  search(q: Int8Array, o: { k: number; floor: number; exact?: boolean }): { id: number; cosine: number }[];
}
type IndexClass = new (dims: number, capacity?: number) => Searchable;

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const rows = Number(arg('rows', '100500'));
const dims = Number(arg('dims', '384'));
const rounds = Number(arg('rounds', '6'));
const questions = Number(arg('questions', '30'));
const beforePath = arg('before', '');
if (!beforePath) throw new Error('--before <path of the earlier vector-index.ts> is required');
const Before: IndexClass =
  beforePath === 'js'
    ? class extends After {
        constructor(d: number, c?: number) {
          super(d, c, 'js');
        }
      }
    : ((await import(beforePath)) as { VectorIndex: IndexClass }).VectorIndex;

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? NaN;
};

function dataSet(kind: 'clustered' | 'random' | 'near'): { vectors: Int8Array[]; queries: Int8Array[] } {
  if (kind === 'clustered')
    return {
      vectors: Array.from({ length: rows }, (_, i) => quantise(fakeVectorOfId(7, dims, i + 1))),
      queries: Array.from({ length: questions }, (_, i) => quantise(fakeVectorOfText(7, dims, `question ${i}`))),
    };
  const prng = createPrng(kind === 'random' ? 21 : 22);
  const gauss = () => Math.sqrt(-2 * Math.log(prng.next() || 1e-12)) * Math.cos(2 * Math.PI * prng.next());
  const vectors = Array.from({ length: rows }, () => quantise(Array.from({ length: dims }, gauss)));
  const queries = Array.from({ length: questions }, () => {
    if (kind === 'random') return quantise(Array.from({ length: dims }, gauss));
    const base = vectors[prng.int(0, rows - 1)] as Int8Array;
    return quantise(Array.from(base, (x) => x / 127 + gauss() / Math.sqrt(dims)));
  });
  return { vectors, queries };
}

function agreement(index: Searchable, queries: Int8Array[], k: number): number {
  let sum = 0;
  for (const q of queries) {
    const exact = index.search(q, { k, floor: -1, exact: true }).map((h) => h.id);
    const fast = new Set(index.search(q, { k, floor: -1 }).map((h) => h.id));
    sum += exact.filter((id) => fast.has(id)).length / Math.max(1, exact.length);
  }
  return sum / queries.length;
}

console.log(`vector search A/B: ${rows} rows × ${dims} dims, ${questions} questions × ${rounds} rounds, k = 50 (the lane's) · load ${process.platform === 'linux' ? (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ') : '?'}`);
for (const kind of ['clustered', 'random', 'near'] as const) {
  const { vectors, queries } = dataSet(kind);
  const a = new Before(dims, rows);
  const b = new After(dims, rows);
  vectors.forEach((v, i) => {
    a.set(i + 1, v);
    b.set(i + 1, v);
  });
  const cpu = { A: [] as number[], B: [] as number[] };
  for (let r = 0; r < rounds; r++)
    for (const [name, index] of (r % 2 ? [['B', b], ['A', a]] : [['A', a], ['B', b]]) as [keyof typeof cpu, Searchable][])
      for (const q of queries) {
        const c0 = cpuMs();
        index.search(q, { k: 50, floor: 0.2 });
        if (r > 0) cpu[name].push(cpuMs() - c0); // round 0 warms the JIT
      }
  const agree = (index: Searchable, k: number) => agreement(index, queries, k).toFixed(3);
  const mA = median(cpu.A);
  const mB = median(cpu.B);
  console.log(
    `${kind.padEnd(9)}  cpu ms/search median A ${mA.toFixed(2)}  B ${mB.toFixed(2)}  B/A ×${(mB / mA).toFixed(2)}  ·  agreement with exact top 50: A ${agree(a, 50)} B ${agree(b, 50)}  top 10: A ${agree(a, 10)} B ${agree(b, 10)}`,
  );
}
