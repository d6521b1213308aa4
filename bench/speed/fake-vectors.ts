/**
 * Deterministic stand-in embeddings for the speed harness's vectors mode (issue 18): no model and no network,
 * the same vector for the same turn id (stored) or question text (the harness server's /v1/embeddings) on every run.
 * Clustered like real embeddings: each vector is one of CLUSTERS seeded centres plus as much seeded noise again
 * (cosine to its centre ≈ 0.7), so a question has many near turns and many far ones.
 */
import { createPrng } from '../lib/prng';

export const FAKE_EMBEDDING_MODEL = 'bench-fake-embeddings';
const CLUSTERS = 64;

function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
}

const centreCache = new Map<string, number[][]>();
function centres(seed: number, dims: number): number[][] {
  const key = `${seed}:${dims}`;
  let out = centreCache.get(key);
  if (!out) {
    const prng = createPrng(seed ^ 0x5eed);
    out = Array.from({ length: CLUSTERS }, () => Array.from({ length: dims }, () => gaussian(prng.next)));
    centreCache.set(key, out);
  }
  return out;
}

function around(seed: number, dims: number, key: number): number[] {
  const prng = createPrng(Math.imul(key ^ 0x9e3779b9, 0x85ebca6b) ^ seed);
  const centre = centres(seed, dims)[prng.int(0, CLUSTERS - 1)] as number[];
  return centre.map((c) => c + gaussian(prng.next));
}

/** The stored vector of turn (or memory) `id`. */
export function fakeVectorOfId(seed: number, dims: number, id: number): number[] {
  return around(seed, dims, id);
}

/** A question's vector (FNV-1a of its text picks its cluster and noise). */
export function fakeVectorOfText(seed: number, dims: number, text: string): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return around(seed, dims, h >>> 0);
}
