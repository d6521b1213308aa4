/**
 * buildMatchQuery against a real FTS5 table (sqlite-wasm in Node), with the tokenizer the app uses. SQL lives in
 * this test only: it proves that what `indexText` writes and what `buildMatchQuery` asks for agree.
 */
import sqlite3InitModule, { type Database } from '@sqlite.org/sqlite-wasm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { MAX_MATCH_TERMS, buildMatchQuery } from './fts-query';
import { extractKeywords } from './keywords';
import { indexText } from './segment';

describe('buildMatchQuery (strings)', () => {
  it.each([
    ['prefix on Latin, none on CJK', ['Python', '代码'], {}, '"python"* OR "代码"'],
    ['no prefix when disabled', ['Python'], { prefix: false }, '"python"'],
    ['one-letter Latin gets no prefix', ['C'], {}, '"c"'],
    ['AND', ['python', 'rust'], { op: 'AND' as const }, '"python"* AND "rust"*'],
    ['identifier as its single whole token', ['processPayment'], {}, '"processpayment"*'],
    ['path as its single whole token', ['src/order.ts'], {}, '"srcorderts"*'],
    ['CJK multi-word keyword becomes a phrase', ['北京大学'], {}, '"北京 大学"'],
    ['Latin multi-word keyword becomes a phrase', ['machine learning'], {}, '"machine learning"*'],
    ['identifier inside a multi-word keyword: all tokens', ['fix processPayment'], {}, '("fix"* AND "processpayment"*)'],
    ['quotes are doubled, operators are plain words', ['say "hi"', 'NEAR', 'AND'], {}, '"say hi"* OR "near"* OR "and"*'],
    ['column filter', ['python'], { column: 'body' }, '"body" : ("python"*)'],
    ['duplicates collapse', ['Python', 'python', 'PYTHON'], {}, '"python"*'],
  ])('%s', (_name, keywords, opts, expected) => {
    expect(buildMatchQuery(keywords, opts)).toBe(expected);
  });

  it.each([[[]], [['']], [['*', '-', '()', '"', ':']], [['   ']]])('null when no usable term remains: %j', (keywords) => {
    expect(buildMatchQuery(keywords)).toBeNull();
  });

  it('caps the number of terms', () => {
    const many = Array.from({ length: 100 }, (_, i) => `word${i}x`);
    expect(buildMatchQuery(many)?.split(' OR ')).toHaveLength(MAX_MATCH_TERMS);
  });

  it('rejects a column name that could inject syntax, naming the field', () => {
    expect(() => buildMatchQuery(['x'], { column: 'body) OR (x' })).toThrow(EngineError);
    expect(() => buildMatchQuery(['x'], { column: 'body) OR (x' })).toThrow(/`column`/);
  });
});

describe('buildMatchQuery on a real FTS5 table', () => {
  let db: Database;
  const rows = new Map<number, string>();

  const insert = (text: string) => {
    db.exec({ sql: 'INSERT INTO t(body) VALUES (?)', bind: [indexText(text)] });
    const id = Number(db.selectValue('SELECT last_insert_rowid()'));
    rows.set(id, text);
    return id;
  };
  const search = (keywords: readonly string[], opts = {}) => {
    const match = buildMatchQuery(keywords, opts);
    if (match === null) return [];
    return db.selectValues('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank', [match]).map(Number);
  };

  let beijing: number, python: number, symbol: number, prose: number, path: number, snake: number;

  beforeAll(async () => {
    const sqlite3 = await sqlite3InitModule();
    db = new sqlite3.oo1.DB(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')`);
    beijing = insert('我们今天去北京大学学习');
    python = insert('我喜欢用 Python 写代码');
    symbol = insert('processPayment() 的问题：并发时会重复扣款，需要加锁');
    prose = insert('Please process the payment before shipping, the payment 问题 is urgent');
    path = insert('The bug is in src/order.ts, see lib/utils.js too');
    snake = insert('rename process_payment in the Python client');
    // Filler so that bm25's IDF is not clamped to ~0 on a tiny corpus (TECH-NOTES).
    for (let i = 0; i < 30; i++) insert(`filler turn ${i} about weather, lunch plans and 周末 的 安排`);
  });
  afterAll(() => db.close());

  it('北京 matches the row indexed from 我们今天去北京大学学习, and so does the phrase 北京大学', () => {
    expect(search(['北京'])).toEqual([beijing]);
    expect(search(['北京大学'])).toEqual([beijing]);
  });

  it('001 "Keyword matching with SQLite FTS": the prefix Pyth* matches Python', () => {
    expect(search(['Pyth'])).toEqual(expect.arrayContaining([python, snake]));
    expect(search(['Pyth'], { prefix: false })).toEqual([]);
  });

  it('001 keywords of the stored sentence find it again', () => {
    expect(search(extractKeywords('我喜欢用 Python 写代码'), { op: 'AND' })).toEqual([python]);
  });

  it('processPayment finds the identifier (in any naming convention), not prose about processing payments', () => {
    const found = search(['processPayment']);
    expect(found).toEqual(expect.arrayContaining([symbol, snake]));
    expect(found).not.toContain(prose);
  });

  it('a mixed query ranks the whole-identifier turn first', () => {
    const found = search(extractKeywords('之前 processPayment 的问题解决了吗'));
    expect(found).toContain(prose); // through 问题 alone
    expect(found[0]).toBe(symbol);
  });

  it('an identifier part still finds the identifier', () => {
    expect(search(['payment'])).toEqual(expect.arrayContaining([symbol, prose, snake]));
  });

  it('paths match whole and by file name, not by unrelated words', () => {
    expect(search(['src/order.ts'])).toEqual([path]);
    expect(search(['order.ts'])).toEqual([path]);
    expect(search(['utils.js'])).toEqual([path]);
  });

  it.each([
    ['quotes', ['"', 'he said "hi"', '""python""']],
    ['operators', ['AND', 'OR', 'NOT', 'NEAR', 'NEAR(a b)', 'a OR b', '-python', '+x']],
    ['syntax characters', ['*', 'py*', '^start', 'body:python', 'col : x', '(', ')', '{body}', 'a-b-c', '::', '\\']],
    ['mixed garbage', ['北京"大学', '"*:-()^{}', 'NOT 代码 NEAR/2', '\u0000x', '\uD83D\uDE00 emoji']],
  ])('queries with %s never throw', (_name, keywords) => {
    for (const op of ['OR', 'AND'] as const) {
      expect(() => search(keywords, { op })).not.toThrow();
      expect(() => search(keywords, { op, column: 'body' })).not.toThrow();
    }
  });

  it('no generated keyword list can break the MATCH expression (property)', () => {
    const alphabet = fc.constantFrom(...'"*:-()^{}+ \\/.NEARANDORNOT北京代码pyé_\'\n'.split(''));
    const keyword = fc.oneof(fc.string(), fc.string({ unit: alphabet, maxLength: 12 }), fc.constantFrom('AND', 'OR', 'NOT', 'NEAR'));
    fc.assert(
      fc.property(fc.array(keyword, { maxLength: 6 }), fc.boolean(), (keywords, prefix) => {
        search(keywords, { prefix });
      }),
      { numRuns: 300 },
    );
  });
});
