/**
 * Vectors as stored (issue 18): the embedding scaled to unit length, each component × 127 and rounded to a signed
 * byte — 1 byte per dimension instead of 4 or 8 (384 dims → 384 B per turn). Cosine similarity survives the rounding
 * to about ±0.01 on unit vectors of a few hundred dimensions, far below the gaps ranking acts on.
 */
export const QUANT_SCALE = 127;

/** A float embedding → its int8 form (a zero vector stays zero: it is similar to nothing). */
export function quantise(vector: readonly number[]): Int8Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  const out = new Int8Array(vector.length);
  if (!(norm > 0) || !Number.isFinite(norm)) return out;
  for (let i = 0; i < vector.length; i++) out[i] = Math.max(-QUANT_SCALE, Math.min(QUANT_SCALE, Math.round(((vector[i] ?? 0) / norm) * QUANT_SCALE)));
  return out;
}

/** Euclidean length of an int8 vector (for cosine after rounding). */
export function int8Norm(v: Int8Array, offset = 0, dims = v.length): number {
  let s = 0;
  for (let i = offset; i < offset + dims; i++) s += (v[i] as number) * (v[i] as number);
  return Math.sqrt(s);
}

/** Cosine similarity of two int8 vectors of the same length (0 when either is zero). */
export function int8Cosine(a: Int8Array, b: Int8Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  const n = int8Norm(a) * int8Norm(b);
  return n > 0 ? dot / n : 0;
}
