import { describe, expect, it } from 'vitest';
import { symbolToken, symbolsColumn, symbolsMatch } from './symbol-tokens';

describe('symbol tokens (messages_fts.symbols)', () => {
  it.each([
    ['processPayment', 'processpayment'],
    ['OrderService.processPayment', 'orderservice_processpayment'],
    ['src/order.ts', 'src_order_ts'],
    ['std::vector', 'std_vector'],
    ['$scope', '_scope'],
    ['snake_case_name', 'snake_case_name'],
    ['TypeError', 'typeerror'],
  ])('%s → %s', (symbol, token) => expect(symbolToken(symbol)).toBe(token));

  it('a turn’s symbols are one column of distinct tokens; symbols with nothing searchable are left out', () => {
    expect(symbolsColumn(['processPayment', 'ProcessPayment', 'src/a.ts', '::'])).toBe('processpayment src_a_ts');
  });

  it('a query matches any of its symbols in the symbols column, quoted so FTS5 reads no operator in them', () => {
    expect(symbolsMatch(['processPayment', 'NOT', 'src/order.ts'])).toBe('{symbols} : ("processpayment" OR "not" OR "src_order_ts")');
    expect(symbolsMatch([])).toBeNull();
    expect(symbolsMatch(['->'])).toBeNull();
  });
});
