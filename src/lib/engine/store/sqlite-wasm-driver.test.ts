/**
 * The wasm driver reads rows with each statement's column names kept, not decoded from C on every row (issue 16: at
 * 100,000 turns the first recall spent ~10 % of its time in sqlite-wasm's string scans for column names). The rows
 * are what oo1's `get({})` gives, and a schema change that re-prepares a statement is seen.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteWasmDriver } from './sqlite-wasm-driver';

const sqlite3 = await sqlite3InitModule();

afterEach(() => vi.restoreAllMocks());

function open() {
  const db = new sqlite3.oo1.DB(':memory:');
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, note TEXT); INSERT INTO t (name, score, data, note) VALUES ('a', 1.5, x'0102', NULL), ('b', NULL, NULL, 'n')");
  return { db, driver: createSqliteWasmDriver(db, { capi: sqlite3.capi }) };
}

describe('the wasm driver reads rows by column name', () => {
  it('gives the rows oo1 gives: every type, nulls, a repeated column name (the last wins), get and all', () => {
    const { db, driver } = open();
    const sql = 'SELECT id, name, score, data, note, 1 AS x, 2 AS x FROM t ORDER BY id';
    const expected: unknown[] = [];
    db.exec({ sql, rowMode: 'object', callback: (row) => void expected.push({ ...row }) });
    expect(driver.all(sql)).toEqual(expected);
    expect(driver.all(sql)).toEqual(expected);
    expect(driver.get(sql)).toEqual(expected[0]);
    expect(driver.get('SELECT * FROM t WHERE id = ?', [99])).toBeUndefined();
    expect(driver.all('SELECT * FROM t WHERE id = ?', [99])).toEqual([]);
    driver.close();
  });

  it('decodes a statement’s column names once, however many rows and calls read it', () => {
    const { driver } = open();
    driver.run('INSERT INTO t (name) SELECT name FROM t'); // 4 rows
    driver.run('INSERT INTO t (name) SELECT name FROM t'); // 8 rows
    const decode = vi.spyOn(sqlite3.capi, 'sqlite3_column_name');
    for (let i = 0; i < 10; i++) expect(driver.all<{ name: string }>('SELECT id, name FROM t')).toHaveLength(8);
    expect(decode.mock.calls.length).toBe(2);
    driver.close();
  });

  it('sees the new columns of `SELECT *` after a schema change re-prepares the statement', () => {
    const { driver } = open();
    const before = driver.get<Record<string, unknown>>('SELECT * FROM t WHERE id = 1');
    expect(Object.keys(before ?? {})).toEqual(['id', 'name', 'score', 'data', 'note']);
    driver.exec('ALTER TABLE t ADD COLUMN added TEXT DEFAULT \'new\'');
    expect(driver.get('SELECT * FROM t WHERE id = 1')).toMatchObject({ id: 1, name: 'a', added: 'new' });
    driver.exec('ALTER TABLE t RENAME COLUMN name TO label');
    const renamed = driver.all<Record<string, unknown>>('SELECT * FROM t ORDER BY id');
    expect(renamed[1]).toMatchObject({ id: 2, label: 'b', added: 'new' });
    expect(renamed[1]).not.toHaveProperty('name');
    driver.close();
  });
});
