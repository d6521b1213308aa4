/**
 * Code symbols in conversation text (002 REQ-LTM-006, feeding REQ-LTM-003's symbol_index): functions
 * (processOrder, getUserById), classes (OrderService, PaymentHandler), files (src/service.ts, lib/utils.js),
 * variables (config, options, result) and error types (TypeError, NetworkError), in zh and en prose and code.
 *
 * Precision first: ordinary English words, capitalised sentence starts (The Service…, I Like Python) and Chinese
 * are never symbols. A name is reported when its shape is code-only (camelCase, PascalCase with two humps,
 * snake_case, …Error) or when its context is code (backticks, fenced blocks, a call `x(`, an assignment `x =`,
 * a declaration `const x`, member access `config.timeout`).
 *
 * relevance ∈ [0, 1]: the strongest evidence of any mention (declaration > code-formatted > call/assignment in
 * prose > shape alone > common variable name in Chinese prose) plus a bonus for repeated mentions.
 */
import { GLOBAL_OBJECTS, BUILTIN_FUNCTIONS, COMMON_VARIABLES, DOMAIN_SUFFIXES, KEYWORDS } from './symbol-lexicon';
import { isNotCode, isStrongShape, kindOfShape, shapeOf, type SymbolKind } from './symbol-rules';
import { SpanMask, codeRegions, fileSpans, inCjkProse, regionAt, urlSpans, type CodeRegion, type Span } from './symbol-spans';

export type { SymbolKind } from './symbol-rules';

export interface ExtractedSymbol {
  symbol: string;
  kind: SymbolKind;
  /** 0..1, higher for declared, code-formatted and repeated symbols. */
  relevance: number;
  /** ≤ 80 characters (code points) around the first mention, whitespace collapsed. */
  context: string;
}

/** Evidence strength of one mention; the best mention sets a symbol's base relevance. */
const EVIDENCE = { declaration: 0.9, code: 0.75, syntax: 0.7, error: 0.65, shape: 0.6, member: 0.55, weak: 0.45 } as const;
const REPEAT_BONUS = 0.05;
const MAX_REPEAT_BONUS = 0.15;
// 002 存储效率: a symbol index entry under ~100 B, so the context is a short window.
const CONTEXT_CHARS = 32;
const CONTEXT_BEFORE = 10;

const IDENT = /(?<![\w$@#./\\-])[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*/g;
const CHAIN_SPLIT = /\.|::|->/;
const DECLARATION = /(?:^|[^\w$.])(function\*?|def|fn|func|fun|class|interface|struct|enum|trait|type|record|const|let|var|val|new|extends|implements)\s+$/;
const ASSIGNMENT = /^\s*(?::\s*[\w<>[\], .|?]{1,40})?\s*=(?![=>])/;
const FUNCTION_VALUE = /^\s*(?::[^=\n]{0,40})?=\s*(?:async\s+)?(?:function\b|\([^)\n]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/;
const CODE_CALL = /^\s*\(/;
const PROSE_CALL = /^\((?!s\))/;

const DECLARED_KIND: Record<string, SymbolKind> = {
  function: 'function', 'function*': 'function', def: 'function', fn: 'function', func: 'function', fun: 'function',
  class: 'class', interface: 'class', struct: 'class', enum: 'class', trait: 'class', type: 'class', record: 'class',
  new: 'class', extends: 'class', implements: 'class', const: 'variable', let: 'variable', var: 'variable', val: 'variable',
};

interface Mention {
  symbol: string;
  kind: SymbolKind;
  evidence: number;
  index: number;
  length: number;
}

interface ScanOptions {
  /** Queries are short: accept common variable names (config, result) in any prose, not only Chinese. */
  query: boolean;
}

/** 002 REQ-LTM-006: symbols with kind, relevance and context, one entry per symbol (its best mention). */
export function extractSymbols(text: string): ExtractedSymbol[] {
  return aggregate(text, scan(text, { query: false }));
}

/** Symbols mentioned in a query ("之前 processPayment 的问题解决了吗" → processPayment), in order of appearance. */
export function querySymbols(query: string): string[] {
  return aggregate(query, scan(query, { query: true })).map((s) => s.symbol);
}

function scan(text: string, opts: ScanOptions): Mention[] {
  const regions = codeRegions(text);
  const mask = new SpanMask(text.length);
  for (const url of urlSpans(text)) mask.take(url);
  const files = fileSpans(text, mask);
  const mentions: Mention[] = files.map((f) => {
    const region = regionAt(regions, f.start);
    return { symbol: f.file, kind: 'file', evidence: region ? EVIDENCE.code : EVIDENCE.shape, index: f.start, length: f.file.length };
  });
  for (const m of text.matchAll(IDENT)) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (!mask.isFree(span)) continue;
    mentions.push(...classify(text, m[0], span, regionAt(regions, span.start), opts));
  }
  return mentions;
}

function mention(symbol: string, kind: SymbolKind, evidence: number, index: number): Mention {
  return { symbol, kind, evidence, index, length: symbol.length };
}

function classify(text: string, chain: string, span: Span, region: CodeRegion | undefined, opts: ScanOptions): Mention[] {
  const after = text.slice(span.end, span.end + 80);
  const before = text.slice(Math.max(0, span.start - 24), span.start);
  const isCall = (region ? CODE_CALL : PROSE_CALL).test(after);
  const parts = chain.split(CHAIN_SPLIT);
  if (parts.length > 1) return classifyChain(parts, span.start, isCall, region);

  const name = chain;
  if (name.length < 2 || KEYWORDS.has(name)) return [];
  const shape = shapeOf(name);
  const inCode = region !== undefined;
  if (!inCode && isNotCode(name)) return [];
  if (shape === 'error') return [mention(name, 'error', inCode ? EVIDENCE.code : EVIDENCE.error, span.start)];

  const declared = inCode ? DECLARATION.exec(before)?.[1] : undefined;
  if (declared !== undefined) {
    const kind = DECLARED_KIND[declared] ?? 'variable';
    const isFunctionValue = kind === 'variable' && FUNCTION_VALUE.test(after);
    return [mention(name, isFunctionValue ? 'function' : kind, EVIDENCE.declaration, span.start)];
  }
  if (isCall) {
    if (BUILTIN_FUNCTIONS.has(name)) return [];
    const kind = shape === 'pascal' || shape === 'capitalized' ? 'class' : 'function';
    return [mention(name, kind, inCode ? EVIDENCE.code : EVIDENCE.syntax, span.start)];
  }
  if (ASSIGNMENT.test(after) && (inCode || isStrongShape(shape) || COMMON_VARIABLES.has(name) || inCjkProse(text, span))) {
    const kind = FUNCTION_VALUE.test(after) ? 'function' : 'variable';
    return [mention(name, kind, inCode ? EVIDENCE.declaration - 0.05 : EVIDENCE.syntax, span.start)];
  }
  const byShape = kindOfShape(name, shape);
  if (byShape) return [mention(name, byShape, inCode ? EVIDENCE.code : EVIDENCE.shape, span.start)];
  // A whole backtick span holding one plain name: `config`, `mutex`, `Order`.
  if (region?.kind === 'inline' && isWholeInline(text, region, span)) {
    return [mention(name, shape === 'capitalized' ? 'class' : 'variable', EVIDENCE.code, span.start)];
  }
  if (shape === 'plain' && COMMON_VARIABLES.has(name) && (inCode || opts.query || inCjkProse(text, span))) {
    return [mention(name, 'variable', EVIDENCE.weak, span.start)];
  }
  return [];
}

/** `a.b.c`: a call reports its method, any chain reports its receiver; sites (example.com) and initialisms are skipped. */
function classifyChain(parts: string[], index: number, isCall: boolean, region: CodeRegion | undefined): Mention[] {
  const inCode = region !== undefined;
  const last = parts[parts.length - 1] ?? '';
  if (parts.every((p) => p.length === 1)) return [];
  if (!inCode && !isCall && DOMAIN_SUFFIXES.has(last.toLowerCase())) return [];
  const out: Mention[] = [];
  const root = parts[0] ?? '';
  const rootShape = shapeOf(root);
  // In prose a capitalised receiver is a name or a sentence start (Node.js, Hello.World), not a class.
  const rootIsCode = inCode || isCall || rootShape !== 'capitalized';
  if (root.length >= 2 && rootIsCode && !GLOBAL_OBJECTS.has(root) && !KEYWORDS.has(root) && !isNotCode(root)) {
    const kind = rootShape === 'pascal' || rootShape === 'capitalized' ? 'class' : 'variable';
    const evidence = inCode ? EVIDENCE.code : isStrongShape(rootShape) ? EVIDENCE.shape : EVIDENCE.member;
    out.push(mention(root, kind, evidence, index));
  }
  let offset = root.length;
  for (const [i, part] of parts.entries()) {
    if (i === 0) continue;
    offset += 1;
    const at = index + offset;
    offset += part.length;
    const shape = shapeOf(part);
    if (i === parts.length - 1 && isCall && !BUILTIN_FUNCTIONS.has(part) && !KEYWORDS.has(part) && part.length >= 2) {
      out.push(mention(part, shape === 'pascal' ? 'class' : 'function', inCode ? EVIDENCE.code : EVIDENCE.syntax, at));
    } else if (isStrongShape(shape) && !isNotCode(part)) {
      const kind = kindOfShape(part, shape);
      if (kind) out.push(mention(part, kind, inCode ? EVIDENCE.code : EVIDENCE.shape, at));
    }
  }
  return out;
}

function isWholeInline(text: string, region: CodeRegion, span: Span): boolean {
  const inner = text.slice(region.start, region.end).replace(/^`+|`+$/g, '').trim();
  return inner === text.slice(span.start, span.end) || inner === `${text.slice(span.start, span.end)}()`;
}

function aggregate(text: string, mentions: readonly Mention[]): ExtractedSymbol[] {
  const bySymbol = new Map<string, { best: Mention; first: Mention; count: number }>();
  for (const m of mentions) {
    const seen = bySymbol.get(m.symbol);
    if (!seen) {
      bySymbol.set(m.symbol, { best: m, first: m, count: 1 });
      continue;
    }
    seen.count += 1;
    if (m.evidence > seen.best.evidence) seen.best = m;
    if (m.index < seen.first.index) seen.first = m;
  }
  return [...bySymbol.values()]
    .sort((a, b) => a.first.index - b.first.index)
    .map(({ best, first, count }) => ({
      symbol: best.symbol,
      kind: best.kind,
      relevance: round2(Math.min(1, best.evidence + Math.min(MAX_REPEAT_BONUS, REPEAT_BONUS * (count - 1)))),
      context: contextAround(text, first),
    }));
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** ≤ 80 code points: a little before the mention, the mention, the rest after; whitespace collapsed. */
function contextAround(text: string, m: Mention): string {
  const windowStart = Math.max(0, m.index - CONTEXT_BEFORE * 2);
  const head = Array.from(text.slice(windowStart, m.index).replace(/\s+/g, ' ')).slice(-CONTEXT_BEFORE).join('');
  const tail = Array.from(text.slice(m.index, m.index + CONTEXT_CHARS * 2).replace(/\s+/g, ' '));
  const room = CONTEXT_CHARS - Array.from(head).length;
  return (head + tail.slice(0, room).join('')).trim();
}
