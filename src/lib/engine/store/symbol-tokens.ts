/**
 * Code symbols as single FTS5 tokens for `symbols_fts` (migration 0009): lower-cased (symbol_index compares
 * NOCASE), every run of other characters turned into `_`, which that table's tokenizer keeps inside a token.
 * `src/order.ts` → `src_order_ts`, `OrderService.processPayment` → `orderservice_processpayment`. Two symbols that
 * differ only in punctuation share a token; the symbol_index join that follows every lookup tells them apart.
 */
export function symbolToken(symbol: string): string {
  return symbol.toLowerCase().replace(/[^\p{L}\p{N}_]+/gu, '_');
}

const meaningful = (token: string) => /[\p{L}\p{N}]/u.test(token);

/** The `symbols` column of a turn's symbols_fts row. */
export function symbolsColumn(symbols: readonly string[]): string {
  return [...new Set(symbols.map(symbolToken).filter(meaningful))].join(' ');
}

/** A MATCH expression for any of `symbols`, or null when none can be searched. */
export function symbolsMatch(symbols: readonly string[]): string | null {
  const tokens = [...new Set(symbols.map(symbolToken).filter(meaningful))];
  return tokens.length ? tokens.map((t) => `"${t}"`).join(' OR ') : null;
}
