/**
 * `context_rules.surrounding = N` (seed 004 "surrounding 的单位与裁剪规则固定"): N Unicode code points
 * on EACH side of the selection, keeping the text nearest to it.
 *
 *   before: … para A ¶ para B ¶ para C|SELECTION|para D ¶ para E …   :after
 *                           keep ◀──────┘          └──────▶ keep
 *
 * 1. A side that fits is kept untouched.
 * 2. Otherwise cut at the paragraph boundary that keeps the most text within N.
 * 3. If not even the nearest paragraph fits, cut at the sentence boundary that keeps the most.
 * 4. If not even the nearest sentence fits, that side is empty: a half sentence is never injected.
 */
import { EngineError } from '../errors';
import { findBoundaries, type Boundary } from './boundaries';

export type TrimBoundary = 'none' | 'paragraph' | 'sentence';

export interface TrimSurroundingResult {
  before: string;
  after: string;
  /**
   * Code points removed per side; `boundary` is the deepest fallback either side needed
   * (none < paragraph < sentence); a side emptied by rule 4 counts as `sentence`.
   */
  cut: { beforeRemoved: number; afterRemoved: number; boundary: TrimBoundary };
}

interface SideCut {
  text: string;
  removed: number;
  boundary: TrimBoundary;
}

export function trimSurrounding(opts: { before: string; after: string; limit: number }): TrimSurroundingResult {
  if (!Number.isInteger(opts.limit) || opts.limit < 0) {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `limit`: must be a non-negative integer', { fields: ['limit'] });
  }
  const before = keepTail(Array.from(opts.before), opts.limit);
  const after = keepHead(Array.from(opts.after), opts.limit);
  return {
    before: before.text,
    after: after.text,
    cut: { beforeRemoved: before.removed, afterRemoved: after.removed, boundary: deeper(before.boundary, after.boundary) },
  };
}

const DEPTH: Record<TrimBoundary, number> = { none: 0, paragraph: 1, sentence: 2 };

function deeper(a: TrimBoundary, b: TrimBoundary): TrimBoundary {
  return DEPTH[a] >= DEPTH[b] ? a : b;
}

/** Text before the selection: keep a suffix that starts at a boundary. */
function keepTail(cps: string[], limit: number): SideCut {
  const n = cps.length;
  if (n <= limit) return { text: cps.join(''), removed: 0, boundary: 'none' };
  const bounds = findBoundaries(cps);
  // The earliest start that fits keeps the most text; a cut that keeps nothing is no paragraph cut.
  const pick = (kind: Boundary['kind'] | 'any') =>
    bounds.find((b) => (kind === 'any' || b.kind === kind) && n - b.start <= limit && b.start < n);
  const cutAt = pick('paragraph') ?? pick('any');
  if (!cutAt) return { text: '', removed: n, boundary: 'sentence' };
  return { text: cps.slice(cutAt.start).join(''), removed: cutAt.start, boundary: cutAt.kind };
}

/** Text after the selection: keep a prefix that ends at a boundary. */
function keepHead(cps: string[], limit: number): SideCut {
  const n = cps.length;
  if (n <= limit) return { text: cps.join(''), removed: 0, boundary: 'none' };
  const bounds = findBoundaries(cps);
  // The latest end that fits keeps the most text; a cut that keeps nothing is no paragraph cut.
  const pick = (kind: Boundary['kind'] | 'any') =>
    bounds.findLast((b) => (kind === 'any' || b.kind === kind) && b.end <= limit && b.end > 0);
  const cutAt = pick('paragraph') ?? pick('any');
  if (!cutAt) return { text: '', removed: n, boundary: 'sentence' };
  return { text: cps.slice(0, cutAt.end).join(''), removed: n - cutAt.end, boundary: cutAt.kind };
}
