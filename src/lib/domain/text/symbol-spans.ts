/**
 * Where code is in a message, and which spans are files or URLs: the context half of symbol extraction.
 * Offsets are UTF-16 indexes into the original text.
 */
import { hasCjk, isPathLike } from './segment';
import { FILE_EXTENSIONS, GLOBAL_OBJECTS, JS_PRODUCTS, SPECIAL_FILES } from './symbol-lexicon';

export interface Span {
  start: number;
  end: number;
}

export interface CodeRegion extends Span {
  /** `inline` for a backtick span, `block` for a fenced block. */
  kind: 'inline' | 'block';
}

const FENCE = /^(`{3,10}|~{3,10})[^\n]*\n[\s\S]*?(?:^\1[ \t]*$|(?![\s\S]))/gm;
// Bounded runs keep these linear on adversarial input (20,000 backticks, a.a.a.a…).
const INLINE = /(`{1,3})([^`\n]+?)\1(?!`)/g;
const URL = /\b(?:[a-z][a-z0-9+.-]{0,30}:\/\/|www\.)[^\s<>"'`，。）]+/gi;
const PATH = /(?<![\w@./\\-])(?:(?:~|\.{1,2})?[/\\])?[\w@.-]+(?:[/\\][\w@.-]+)+/g;
const BARE_FILE = /(?<![\w@./\\-])[\w-]+(?:\.[\w-]+)*\.([A-Za-z][A-Za-z0-9]{0,9})(?![\w/\\-]|\.\w|\s*\()/g;
const SPECIAL = /(?<![\w@./\\-])(?:\.[a-z][\w.-]*|[A-Z][a-z]+file)\b/g;
const INITIALISM = /^(?:[A-Za-z]\.)+[A-Za-z]$/;

/** Fenced blocks first; backtick spans only outside them. */
export function codeRegions(text: string): CodeRegion[] {
  const blocks: CodeRegion[] = [];
  for (const m of text.matchAll(FENCE)) blocks.push({ start: m.index, end: m.index + m[0].length, kind: 'block' });
  const regions = [...blocks];
  for (const m of text.matchAll(INLINE)) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (!blocks.some((b) => overlaps(b, span))) regions.push({ ...span, kind: 'inline' });
  }
  return regions.sort((a, b) => a.start - b.start);
}

/** Marks character ranges as taken; checks cost the span's length, not the number of spans (long pastes). */
export class SpanMask {
  private readonly taken: Uint8Array;
  constructor(length: number) {
    this.taken = new Uint8Array(length);
  }
  isFree(span: Span): boolean {
    for (let i = span.start; i < span.end; i++) if (this.taken[i]) return false;
    return true;
  }
  take(span: Span): void {
    this.taken.fill(1, span.start, span.end);
  }
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Binary search: regions are sorted and do not overlap. */
export function regionAt(regions: readonly CodeRegion[], index: number): CodeRegion | undefined {
  let lo = 0;
  let hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = regions[mid]!;
    if (index < r.start) hi = mid - 1;
    else if (index >= r.end) lo = mid + 1;
    else return r;
  }
  return undefined;
}

export function urlSpans(text: string): Span[] {
  return Array.from(text.matchAll(URL), (m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** A bare `name.ext` is a file unless it is a product (Node.js), an initialism (U.S.C) or a global (process.env). */
function isBareFile(name: string, ext: string): boolean {
  if (!FILE_EXTENSIONS.has(ext.toLowerCase()) || INITIALISM.test(name)) return false;
  const stem = name.slice(0, name.length - ext.length - 1);
  if (GLOBAL_OBJECTS.has(stem)) return false;
  return !(ext.toLowerCase() === 'js' && JS_PRODUCTS.has(stem.toLowerCase()));
}

/** Paths (src/order.ts, ./a/b), bare file names with a known extension (utils.js) and conventional names (Dockerfile). */
export function fileSpans(text: string, mask: SpanMask): (Span & { file: string })[] {
  const found: (Span & { file: string })[] = [];
  const add = (start: number, raw: string) => {
    const file = raw.replace(/[.-]+$/, '');
    const span = { start, end: start + file.length };
    if (file === '' || !mask.isFree(span)) return;
    mask.take(span);
    found.push({ ...span, file });
  };
  for (const m of text.matchAll(PATH)) if (isPathLike(m[0].replace(/[.-]+$/, ''))) add(m.index, m[0]);
  for (const m of text.matchAll(BARE_FILE)) if (isBareFile(m[0], m[1] ?? '')) add(m.index, m[0]);
  for (const m of text.matchAll(SPECIAL)) if (SPECIAL_FILES.has(m[0])) add(m.index, m[0]);
  return found.sort((a, b) => a.start - b.start);
}

/** The nearest non-space character on either side is CJK: an English word inside Chinese prose (把 config 改了). */
export function inCjkProse(text: string, span: Span): boolean {
  const before = text.slice(Math.max(0, span.start - 3), span.start).trimEnd();
  const after = text.slice(span.end, span.end + 3).trimStart();
  return hasCjk(before.slice(-1)) || hasCjk(after.slice(0, 1));
}
