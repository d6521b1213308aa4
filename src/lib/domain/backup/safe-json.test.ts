import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { parseJsonSafely } from './safe-json';

const SECRET = 'my-diary-entry';

function failure(text: string): EngineError {
  try {
    parseJsonSafely(text);
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('parseJsonSafely', () => {
  it.each([
    ['malformed JSON', `{"a": "${SECRET}", tru}`, /not valid JSON/],
    ['a truncated file', `{"a": ["${SECRET}"`, /not valid JSON/],
    ['10,000 levels of arrays', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, /deeper than 64 levels/],
    ['10,000 levels of objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, /deeper than 64 levels/],
    ['a __proto__ key', `{"tables": {"__proto__": {"polluted": "${SECRET}"}}}`, /`__proto__` is not allowed/],
    ['an escaped __proto__ key', '{"\\u005f_proto__": {}}', /`__proto__` is not allowed/],
    ['a constructor key deep inside', `{"a": [{"b": {"constructor": {"prototype": "${SECRET}"}}}]}`, /`constructor` is not allowed/],
    ['a prototype key', '{"prototype" : 1}', /`prototype` is not allowed/],
    ['a string over the limit', `{"a": "${'x'.repeat(2_000_001)}"}`, /longer than 2000000 characters/],
    // Issue 13: JSON.parse keeps the last of two equal keys; a file that says two things is refused.
    ['a key twice in one object', `{"content": "${SECRET}", "content": "b"}`, /a key appears twice in the same object/],
    ['a key twice deep inside', `{"rows": [{"a": 1}, {"ok": true, "ok": false}]}`, /appears twice/],
    ['a key twice, once escaped', `{"role": "user", "\u0072ole": "assistant"}`, /appears twice/],
  ])('refuses %s with INVALID_ARGUMENT naming the position, never the text', (_, text, message) => {
    const err = failure(text);
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/at character \d+\)\. Nothing was imported\.$/);
    expect(err.message).not.toContain(SECRET);
    expect(err.details).toMatchObject({ fields: ['file'] });
  });

  it.each([
    ['forbidden words as values', '{"note": "__proto__ constructor prototype"}', { note: '__proto__ constructor prototype' }],
    ['quotes and backslashes in strings', '{"a": "say \\"hi\\" \\\\ [{"}', { a: 'say "hi" \\ [{' }],
    ['a byte-order mark', '\uFEFF{"a": 1}', { a: 1 }],
    ['64 levels exactly', `${'['.repeat(64)}${']'.repeat(64)}`, JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`)],
    ['Chinese text', '{"内容": "我喜欢用 Python"}', { 内容: '我喜欢用 Python' }],
    ['the same key in sibling and nested objects', '{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}', { a: { a: 1 }, b: [{ a: 2 }, { a: 3 }] }],
    ['a key that is also a string value', '{"a": "a", "b": ["a", "a"]}', { a: 'a', b: ['a', 'a'] }],
  ])('accepts %s', (_, text, expected) => {
    expect(parseJsonSafely(text)).toEqual(expected);
  });

  it('scans a large file in linear time without recursion', () => {
    const row = JSON.stringify({ id: 'x', content: '记忆'.repeat(200), tags: ['a', 'b'], value: { n: [1, 2, { d: null }] } });
    const text = `{"rows":[${Array.from({ length: 20_000 }, () => row).join(',')}]}`;
    const started = performance.now();
    const value = parseJsonSafely(text) as { rows: unknown[] };
    expect(value.rows).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
