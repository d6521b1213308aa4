/**
 * The text toolkit: segmentation, keywords, FTS5 queries, code symbols, snippets, time expressions, tokens.
 * Pure TypeScript (no DOM, no SQL): runs in the DB worker, in Node and in tests.
 */
export { segmenterVersion, hasCjk, segmentWords, indexText, isIdentifier, identifierForm } from './segment';
export { extractKeywords, isStopWord } from './keywords';
export { buildMatchQuery, MAX_MATCH_TERMS, type MatchQueryOptions } from './fts-query';
export { extractSymbols, querySymbols, type ExtractedSymbol, type SymbolKind } from './symbols';
export { clipChars, clipFlat } from './clip';
export { highlightSnippet, DEFAULT_SNIPPET_CHARS, type Snippet, type SnippetSegment } from './snippet';
export { resolveTimeExpressions, type TimeExpression } from './time-expressions';
export { EN_STOP_WORDS, ZH_STOP_WORDS } from './stopwords';
export { countTokens, createTokenCounter, defaultTokenCounter, loadTokenizer, type TokenCounter } from './tokens';
