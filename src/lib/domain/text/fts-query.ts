import { EngineError } from '../errors';
import { hasCjk, identifierForm, isIdentifier, segmentWords } from './segment';

/**
 * FTS5 MATCH expressions built from keywords, for columns filled by `indexText`.
 *
 * Safety: every term is a double-quoted FTS5 string (inner `"` doubled). Inside quotes FTS5 syntax has no meaning —
 * `*`, `-`, `:`, `(`, `^`, AND/OR/NOT/NEAR are handed to the tokenizer as text — so no keyword can change the
 * expression's structure. Terms with no letter or digit are dropped: FTS5 would turn them into empty phrases.
 *
 * Agreement with the index: a keyword is segmented with the same `segmentWords`, identifiers become the same single
 * token `identifierForm` writes (processPayment → "processpayment"), and FTS5 applies the same porter stemmer to
 * both sides. Only the whole identifier is asked for, never its parts, so "processPayment" does not match prose that
 * says "process the payment"; the parts in the index serve queries that name a part ("payment").
 *
 * Prefix (`"python"*`): FTS5 stems the prefix too, so a partially typed word longer than its stem ("runnin"* vs the
 * indexed "run") finds nothing. Keywords are whole words, where the prefix only adds inflections (Pyth* → python).
 */

export interface MatchQueryOptions {
  /** Append `*` to Latin terms of two or more characters (default true). */
  prefix?: boolean;
  /** How terms combine (default 'OR'). */
  op?: 'OR' | 'AND';
  /** Restrict to one FTS5 column. */
  column?: string;
}

/** Bounds the cost of one MATCH: a pasted page must not turn into a thousand-term query. */
export const MAX_MATCH_TERMS = 32;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** The query tokens of one keyword: what `indexText` would have written for it, identifiers as one token. */
function queryTokens(keyword: string): { tokens: string[]; hasIdentifier: boolean } {
  let hasIdentifier = false;
  const tokens: string[] = [];
  for (const token of segmentWords(keyword)) {
    const form = isIdentifier(token) ? identifierForm(token) : token.toLowerCase();
    if (isIdentifier(token)) hasIdentifier = true;
    if (WORD_CHAR.test(form)) tokens.push(form);
  }
  return { tokens, hasIdentifier };
}

function withPrefix(quoted: string, lastToken: string, prefix: boolean): string {
  return prefix && !hasCjk(lastToken) && [...lastToken].length >= 2 ? `${quoted}*` : quoted;
}

/** One keyword as an FTS5 term: a quoted token, a phrase of its segmented words, or (with identifiers) an AND group. */
function renderTerm(keyword: string, prefix: boolean): string | null {
  const { tokens, hasIdentifier } = queryTokens(keyword);
  const last = tokens[tokens.length - 1];
  if (last === undefined) return null;
  if (tokens.length === 1) return withPrefix(quote(last), last, prefix);
  // The index writes an identifier's parts right after it, so a phrase would not be contiguous there: ask for
  // all tokens instead. Plain multi-word keywords (CJK especially: 北京大学 → "北京 大学") stay phrases.
  if (hasIdentifier) return `(${tokens.map((t) => withPrefix(quote(t), t, prefix)).join(' AND ')})`;
  return withPrefix(quote(tokens.join(' ')), last, prefix);
}

/**
 * An FTS5 MATCH expression from keywords, e.g. `"python"* OR "代码"`; null when no usable term remains.
 * Throws INVALID_ARGUMENT only for a column name that is not a plain identifier (a programming error).
 */
export function buildMatchQuery(keywords: readonly string[], opts: MatchQueryOptions = {}): string | null {
  const prefix = opts.prefix ?? true;
  const op = opts.op ?? 'OR';
  if (op !== 'OR' && op !== 'AND') throw new EngineError('INVALID_ARGUMENT', 'Invalid `op`: expected one of "OR", "AND"');
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const keyword of keywords) {
    const term = renderTerm(keyword, prefix);
    if (term === null || seen.has(term)) continue;
    seen.add(term);
    terms.push(term);
    if (terms.length === MAX_MATCH_TERMS) break;
  }
  if (terms.length === 0) return null;
  const expr = terms.join(` ${op} `);
  if (opts.column === undefined) return expr;
  if (!COLUMN_NAME.test(opts.column)) {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `column`: expected a column name of letters, digits and underscores');
  }
  return `${quote(opts.column)} : (${expr})`;
}
