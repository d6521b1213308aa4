/**
 * Word segmentation shared by the index and the query side (ARCHITECTURE §5, TECH-NOTES "Chinese full-text search").
 *
 *   text ──NFKC──▶ CJK runs ──Intl.Segmenter('zh', word)──▶ words
 *              └─▶ other runs ──LATIN_TOKEN regex────────────▶ words, paths, identifiers
 *
 * FTS5's `unicode61` would make a whole run of Han characters one token, so CJK is split into words here and the
 * words are joined with spaces. Latin runs use our own regex (fast and independent of ICU); only CJK depends on the
 * segmenter, whose output is probed into segmenterVersion() so a changed ICU triggers re-indexing.
 *
 * Invariant: documents and queries go through the same functions (`indexForms` here, `buildMatchQuery` reuses them),
 * so whatever a token becomes in the index, the query asks for exactly that.
 */

/** Bump when our own rules change what `segmentWords`/`indexText` emit. */
const RULES_VERSION = 1;

// Script_Extensions also catches ー (prolonged sound mark) and 〆, which are Script=Common.
const CJK_CLASS = '\\p{Script_Extensions=Han}\\p{Script_Extensions=Hiragana}\\p{Script_Extensions=Katakana}\\p{Script_Extensions=Hangul}';
const CJK_TEST = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu');
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

/*
 * One token of a non-CJK run, first match wins:
 *   1. a URL (split into its words later, never kept whole);
 *   2. a path-like run `a/b/c.ext`, `./x`, `~/x`, `C:\x\y` (kept whole only if `isPathLike`), never starting
 *      inside a run of word characters (else `a-a-a-…` would be rescanned from every hyphen: quadratic);
 *   3. a word: letters/marks/digits/underscore joined by `'` `’` `.` or `::` (don't, order.ts, config.timeout,
 *      snake_case, std::vec). Every repetition needs a joiner that the inner class cannot match, so matching is
 *      linear: no catastrophic backtracking on long inputs.
 */
const LATIN_TOKEN =
  /([a-z][a-z0-9+.-]{0,30}:\/\/[^\s<>"'`]+)|((?<![\w@.-])(?:(?:~|\.{1,2})?[/\\])?[\w@.-]+(?:[/\\][\w@.-]+)+)|([\p{L}\p{M}\p{N}_]+(?:(?:['’.]|::)[\p{L}\p{M}\p{N}_]+)*)/giu;
const WORD_ONLY = /[\p{L}\p{M}\p{N}_]+(?:(?:['’.]|::)[\p{L}\p{M}\p{N}_]+)*/gu;
const FILE_EXT_END = /\.[A-Za-z][A-Za-z0-9]{0,9}$/;
const ABSOLUTE_START = /^(?:~|\.{1,2})?[/\\]/;

let segmenter: Intl.Segmenter | null | undefined;

/** One cached segmenter per JS context; null where Intl.Segmenter is missing (then CJK falls back to characters). */
function zhSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter = typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('zh', { granularity: 'word' }) : null;
  }
  return segmenter;
}

export function hasCjk(text: string): boolean {
  return CJK_TEST.test(text);
}

/** A token with its place in the NFKC-normalized text; `cjk` tokens came from the segmenter. */
export interface ScannedToken {
  text: string;
  start: number;
  end: number;
  cjk: boolean;
}

/** Called with each token of a text in order: its text, its place in the NFKC-normalized text, whether CJK. */
type TokenVisit = (text: string, start: number, end: number, cjk: boolean) => void;

/**
 * Every token of `text` to `visit`, allocating only the tokens and the regex matches (issue 16 item 5: indexText
 * ran once a row through the reindex, and its token objects, arrays and `matchAll` iterators — which clone their
 * regex — were the largest share of what the DB worker allocated once the column reads were lean; the worker's
 * garbage collector stalled foreground calls). The global regexes are walked with `exec` from lastIndex 0; no
 * walk nests inside another walk of the same regex.
 */
function scan(text: string, visit: TokenVisit): void {
  const normalized = text.normalize('NFKC');
  let last = 0;
  CJK_RUN.lastIndex = 0;
  for (let m = CJK_RUN.exec(normalized); m !== null; m = CJK_RUN.exec(normalized)) {
    if (m.index > last) latinTokens(normalized.slice(last, m.index), last, visit);
    const end = m.index + m[0].length;
    cjkWords(m[0], m.index, visit);
    last = end;
  }
  if (last < normalized.length) latinTokens(last === 0 ? normalized : normalized.slice(last), last, visit);
}

/** The tokens of `segmentWords` with positions (in `text.normalize('NFKC')`), for callers that need adjacency. */
export function scanTokens(text: string): ScannedToken[] {
  const out: ScannedToken[] = [];
  scan(text, (t, start, end, cjk) => out.push({ text: t, start, end, cjk }));
  return out;
}

/**
 * Word tokens in order, original case, punctuation dropped. CJK is split into words by Intl.Segmenter (zh);
 * identifiers (processPayment, snake_case_name, config.timeout) and paths (src/order.ts) stay one token each.
 */
export function segmentWords(text: string): string[] {
  const out: string[] = [];
  scan(text, (t) => out.push(t));
  return out;
}

function cjkWords(run: string, offset: number, visit: TokenVisit): void {
  const seg = zhSegmenter();
  if (!seg) {
    let i = offset;
    for (const ch of run) {
      if (HAS_WORD_CHAR.test(ch)) visit(ch, i, i + ch.length, true);
      i += ch.length;
    }
    return;
  }
  for (const s of seg.segment(run)) {
    if (s.isWordLike) visit(s.segment, offset + s.index, offset + s.index + s.segment.length, true);
  }
}

function latinTokens(run: string, offset: number, visit: TokenVisit): void {
  LATIN_TOKEN.lastIndex = 0;
  for (let m = LATIN_TOKEN.exec(run); m !== null; m = LATIN_TOKEN.exec(run)) {
    const [whole, url, path, word] = m;
    const at = offset + m.index;
    if (word !== undefined) visit(word, at, at + word.length, false);
    else if (path !== undefined && isPathLike(path)) visit(path, at, at + path.length, false);
    else {
      const inner = url ?? whole;
      WORD_ONLY.lastIndex = 0;
      for (let w = WORD_ONLY.exec(inner); w !== null; w = WORD_ONLY.exec(inner)) visit(w[0], at + w.index, at + w.index + w[0].length, false);
    }
  }
}

/**
 * `a/b` is prose as often as code (and/or, A/B, km/h, 2023/05/08). A run is a path when it ends in a file
 * extension, starts like one (`/`, `./`, `../`, `~/`), or has two or more separators and is not all digits.
 */
export function isPathLike(run: string): boolean {
  if (FILE_EXT_END.test(run) || ABSOLUTE_START.test(run)) return true;
  const parts = run.split(/[/\\]/);
  return parts.length >= 3 && !parts.every((p) => /^\d*$/.test(p));
}

const IDENT_JOINER = /[\p{L}\p{N}][_./\\:@-]+[\p{L}\p{N}]|^_|_$/u;
const CAMEL_HUMP = /\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}/u;
const SEPARATORS = /[/\\]/;
const PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{N}+|[\p{L}\p{M}]+/gu;
const NON_WORD = /[^\p{L}\p{M}\p{N}]+/gu;

/** Code-shaped: camelCase/PascalCase humps, or word characters joined by `_ . / \ : @ -`. Apostrophe words are not. */
export function isIdentifier(token: string): boolean {
  return IDENT_JOINER.test(token) || CAMEL_HUMP.test(token);
}

/**
 * The one token an identifier becomes in the index and in queries: lowercase with every separator removed.
 * `unicode61` would split `src/order.ts` or `snake_case` at the separators; without them the identifier is one
 * predictable token. Side effect, on purpose: processPayment, process_payment and PROCESS_PAYMENT meet.
 */
export function identifierForm(token: string): string {
  return token.toLowerCase().replace(NON_WORD, '');
}

/** Identifier parts for partial matches: processPayment → process, payment; src/order.ts → src, order, ts. */
export function identifierParts(token: string): string[] {
  const parts: string[] = [];
  PART.lastIndex = 0;
  for (let m = PART.exec(token); m !== null; m = PART.exec(token)) parts.push(m[0].toLowerCase());
  return parts;
}

/**
 * What one token contributes to `indexText`: plain words lowercased; identifiers whole, then the whole basename
 * of a path (so `order.ts` finds `src/order.ts`), then their parts.
 */
export function indexForms(token: string): string[] {
  if (!isIdentifier(token)) return [token.toLowerCase()];
  const whole = identifierForm(token);
  const forms = [whole];
  if (SEPARATORS.test(token)) {
    const base = identifierForm(token.split(SEPARATORS).pop() ?? '');
    if (base && base !== whole) forms.push(base);
  }
  const parts = identifierParts(token);
  if (parts.length > 1) forms.push(...parts);
  return forms.filter((f) => f !== '');
}

/** The text for an FTS5 `porter unicode61 remove_diacritics 2` column: space-joined lowercase forms. Deterministic. */
export function indexText(text: string): string {
  const forms: string[] = [];
  scan(text, (token) => {
    // A plain word is one form: no array for it (most tokens are plain words).
    if (!isIdentifier(token)) forms.push(token.toLowerCase());
    else for (const f of indexForms(token)) forms.push(f);
  });
  return forms.join(' ');
}

const PROBE = '我们今天去北京大学学习。昨天讨论了支付流程的并发问题，决定使用互斥锁。去年圣诞节我们在上海。';

/** FNV-1a, 32 bit: a short, stable fingerprint (not security relevant). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

let version: string | undefined;

/**
 * Stored with the index. Changes when our rules change or when the platform's segmenter splits a fixed sentence
 * differently (another ICU), because then old index rows and new queries would disagree.
 *
 * Probed on first use, once per JS context, not when this module loads: building Intl.Segmenter('zh') and segmenting
 * the probe took ~16–23 ms of the DB worker's cold start inside the engine chunk's evaluation, on the first recall's
 * path; the worker now asks for it while it waits for sqlite-wasm and the engine's code (host/worker-api.ts), and the
 * engine's start-up check (ensureSegmenterVersion) still compares it before the first query.
 */
export function segmenterVersion(): string {
  version ??= `r${RULES_VERSION}-${zhSegmenter() ? fnv1a(segmentWords(PROBE).join('|')) : 'nosegmenter'}`;
  return version;
}
