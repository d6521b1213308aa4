import { EngineError } from '../errors';
import { hasCjk } from './segment';

/**
 * Recall-page snippets: a window of text around the best cluster of term matches, returned as segments so the UI
 * renders <mark> without HTML (no injection: every segment is plain text).
 *
 * Matching mirrors the FTS query: case-insensitive; a Latin term matches at the start of a word or of a camelCase
 * hump and extends to the end of that word or hump (the query's prefix `*`: "pyth" marks "Python", "payment" marks
 * the "Payment" of processPayment); a CJK term matches anywhere (no word boundaries in CJK text).
 *
 * Invariant: the joined segments are at most `maxChars` code points, ellipses included.
 */

export interface SnippetSegment {
  text: string;
  hit: boolean;
}

export interface Snippet {
  segments: SnippetSegment[];
  truncatedStart: boolean;
  truncatedEnd: boolean;
}

export const DEFAULT_SNIPPET_CHARS = 160;
const MIN_SNIPPET_CHARS = 10;
const ELLIPSIS = '…';
/** How far the window may move to start or end on a word boundary instead of mid-word. */
const SNAP_CHARS = 12;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
/** Where a window may start or end: spaces and clause punctuation, not the dots and slashes inside names. */
const BREAK = /[\s,;:!?，。；：！？、]/u;

interface Hit {
  start: number;
  end: number;
  term: number;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Latin hits must start a word or a camelCase hump; CJK hits may start anywhere. */
function startsWord(cps: readonly string[], at: number): boolean {
  const prev = cps[at - 1];
  if (prev === undefined || !WORD_CHAR.test(prev)) return true;
  return LOWER.test(prev) && UPPER.test(cps[at] ?? '');
}

/** Extend a Latin hit to the end of its word, stopping at the next camelCase hump. */
function wordEnd(cps: readonly string[], end: number): number {
  let i = end;
  while (i < cps.length && WORD_CHAR.test(cps[i]!) && !hasCjk(cps[i]!) && !(LOWER.test(cps[i - 1] ?? '') && UPPER.test(cps[i]!))) i++;
  return i;
}

function findHits(cps: readonly string[], terms: readonly string[]): Hit[] {
  const usable = [...new Set(terms.map((t) => t.trim().normalize('NFKC')).filter((t) => WORD_CHAR.test(t)))];
  if (usable.length === 0) return [];
  const order = [...usable].sort((a, b) => b.length - a.length);
  const re = new RegExp(order.map(escapeRegExp).join('|'), 'giu');
  const text = cps.join('');
  // UTF-16 offset → code point index, so windows and limits count code points.
  const toCp = new Int32Array(text.length + 1);
  let u = 0;
  for (let i = 0; i < cps.length; i++) {
    toCp.fill(i, u, u + cps[i]!.length);
    u += cps[i]!.length;
  }
  toCp[u] = cps.length;
  const hits: Hit[] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = toCp[m.index]!;
    const term = usable.findIndex((t) => t.toLowerCase() === m![0].toLowerCase());
    const cjk = hasCjk(m[0]);
    if (!cjk && !startsWord(cps, start)) {
      re.lastIndex = m.index + 1;
      continue;
    }
    const end = cjk ? toCp[m.index + m[0].length]! : wordEnd(cps, toCp[m.index + m[0].length]!);
    hits.push({ start, end, term: term < 0 ? 0 : term });
    re.lastIndex = m.index + m[0].length;
  }
  return hits.sort((a, b) => a.start - b.start);
}

/** The run of hits within `budget` code points that covers the most distinct terms, then the most hits. */
function bestCluster(hits: readonly Hit[], budget: number): { start: number; end: number } {
  let best = { start: hits[0]!.start, end: Math.min(hits[0]!.end, hits[0]!.start + budget) };
  let bestScore = -1;
  for (let i = 0; i < hits.length; i++) {
    const terms = new Set<number>();
    let end = hits[i]!.end;
    let count = 0;
    for (let j = i; j < hits.length && hits[j]!.end - hits[i]!.start <= budget; j++) {
      terms.add(hits[j]!.term);
      end = hits[j]!.end;
      count++;
    }
    const score = terms.size * 10_000 + count;
    if (score > bestScore) {
      bestScore = score;
      best = { start: hits[i]!.start, end: Math.min(end, hits[i]!.start + budget) };
    }
  }
  return best;
}

/** Place a window of `size` around the cluster (a third of the slack before it), nudged onto word boundaries. */
function placeWindow(cps: readonly string[], cluster: { start: number; end: number }, size: number): { start: number; end: number } {
  const slack = size - (cluster.end - cluster.start);
  let start = Math.max(0, Math.min(cluster.start - Math.floor(slack / 3), cps.length - size));
  let end = Math.min(cps.length, start + size);
  if (start > 0) {
    for (let i = start; i < Math.min(cluster.start, start + SNAP_CHARS); i++) {
      if (BREAK.test(cps[i]!)) {
        start = i + 1;
        break;
      }
    }
  }
  if (end < cps.length) {
    for (let i = end - 1; i > Math.max(cluster.end, end - SNAP_CHARS); i--) {
      if (BREAK.test(cps[i]!)) {
        end = i;
        break;
      }
    }
  }
  while (start < end && /\s/.test(cps[start]!)) start++;
  while (end > start && /\s/.test(cps[end - 1]!)) end--;
  return { start, end };
}

function toSegments(cps: readonly string[], window: { start: number; end: number }, hits: readonly Hit[]): SnippetSegment[] {
  const segments: SnippetSegment[] = [];
  const push = (from: number, to: number, hit: boolean) => {
    if (to <= from) return;
    const text = cps.slice(from, to).join('');
    const last = segments[segments.length - 1];
    if (last && last.hit === hit) last.text += text;
    else segments.push({ text, hit });
  };
  let at = window.start;
  for (const h of hits) {
    const s = Math.max(h.start, at);
    const e = Math.min(h.end, window.end);
    if (e <= s) continue;
    push(at, s, false);
    push(s, e, true);
    at = e;
  }
  push(at, window.end, false);
  return segments;
}

/**
 * A snippet of at most `maxChars` code points (default 160) around the best cluster of matches of `terms`,
 * whitespace collapsed, with "…" segments (hit: false) where the text was cut. No matches: the start of the text.
 */
export function highlightSnippet(text: string, terms: readonly string[], opts: { maxChars?: number } = {}): Snippet {
  const maxChars = opts.maxChars ?? DEFAULT_SNIPPET_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < MIN_SNIPPET_CHARS) {
    throw new EngineError('INVALID_ARGUMENT', `Invalid \`maxChars\`: must be an integer of at least ${MIN_SNIPPET_CHARS}`);
  }
  // No NFKC here: the snippet shows the user's own characters (，stays ，).
  const cps = Array.from(text.replace(/\s+/g, ' ').trim());
  const hits = findHits(cps, terms);
  if (cps.length <= maxChars) return { segments: toSegments(cps, { start: 0, end: cps.length }, hits), truncatedStart: false, truncatedEnd: false };

  const budget = maxChars - 2; // room for an ellipsis on each side
  const cluster = hits.length > 0 ? bestCluster(hits, budget) : { start: 0, end: 0 };
  let window = placeWindow(cps, cluster, budget);
  // A window touching an edge needs no ellipsis there: give that character back to the text.
  if (window.start === 0) window = { start: 0, end: Math.min(cps.length, window.end + 1) };
  else if (window.end === cps.length) window = { start: Math.max(0, window.start - 1), end: window.end };
  const truncatedStart = window.start > 0;
  const truncatedEnd = window.end < cps.length;
  const segments = toSegments(cps, window, hits);
  if (truncatedStart) segments.unshift({ text: ELLIPSIS, hit: false });
  if (truncatedEnd) segments.push({ text: ELLIPSIS, hit: false });
  return { segments, truncatedStart, truncatedEnd };
}
