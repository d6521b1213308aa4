/**
 * Code symbols in the `symbols` column of messages_fts (migration 0009): lower-cased (symbol_index compares
 * NOCASE), every run of other characters turned into `_`, which the table's tokenizer splits on, so a symbol is
 * one token or one phrase: `processPayment` → `processpayment`, `src/order.ts` → `src_order_ts` (the phrase
 * "src order ts"). Symbols that differ only in punctuation look alike here; the symbol_index join that follows
 * every lookup tells them apart.
 */
export function symbolToken(symbol: string): string {
  return symbol.toLowerCase().replace(/[^\p{L}\p{N}_]+/gu, '_');
}

const meaningful = (token: string) => /[\p{L}\p{N}]/u.test(token);

/** The `symbols` column of a turn's messages_fts row. */
export function symbolsColumn(symbols: readonly string[]): string {
  return [...new Set(symbols.map(symbolToken).filter(meaningful))].join(' ');
}

/** A MATCH expression for any of `symbols` in the symbols column, or null when none can be searched. */
export function symbolsMatch(symbols: readonly string[]): string | null {
  const tokens = [...new Set(symbols.map(symbolToken).filter(meaningful))];
  return tokens.length ? `{symbols} : (${tokens.map((t) => `"${t}"`).join(' OR ')})` : null;
}
