/**
 * The wasm driver reads rows with each statement's column names kept, not decoded from C on every row (issue 16: at
 * 100,000 turns the first recall spent ~10 % of its time in sqlite-wasm's string scans for column names). The rows
 * are what oo1's `get({})` gives, and a schema change that re-prepares a statement is seen.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteWasmDriver } from './sqlite-wasm-driver';
import { createColumnReader } from './wasm-columns';

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

/**
 * Issue 17: SQLite 3.54 prepares some statements again whenever a parameter is bound (their plan may depend on the
 * value) — episode recall's ranking and scene lane among them, on every query. The driver turns the query planner
 * stability guarantee on, so a cached statement keeps its plan; a schema change still re-prepares it (above).
 */
describe('the wasm driver keeps a cached statement prepared across bindings', () => {
  // The shapes measured (store/episode-recall-query.ts): two equalities under ORDER BY … LIMIT, and an FTS5 MATCH
  // joined to a row filter.
  const SCENE = 'SELECT rid FROM e WHERE project_id = ? AND scene_type = ? ORDER BY rid DESC LIMIT ?';
  const RANKED = 'SELECT e.rid FROM e_fts CROSS JOIN e ON e.rid = e_fts.rowid WHERE e_fts MATCH ? AND e.project_id = ? ORDER BY e_fts.rowid DESC LIMIT 5';
  const schema =
    "CREATE TABLE e (rid INTEGER PRIMARY KEY, project_id TEXT, scene_type TEXT); CREATE INDEX e_ps ON e(project_id, scene_type, rid); CREATE VIRTUAL TABLE e_fts USING fts5(body);" +
    "INSERT INTO e VALUES (1, 'p', 'dialogue'), (2, 'q', 'action'), (3, 'p', 'action'); INSERT INTO e_fts (rowid, body) VALUES (1, 'harbour light'), (2, 'harbour rain'), (3, 'light rain');";

  it('runs a statement SQLite would re-prepare on every binding without preparing it again', () => {
    const db = new sqlite3.oo1.DB(':memory:');
    const driver = createSqliteWasmDriver(db, { capi: sqlite3.capi, wasm: sqlite3.wasm });
    driver.exec(schema);
    const prepare = vi.spyOn(sqlite3.capi, 'sqlite3_prepare_v3');
    const names = vi.spyOn(sqlite3.capi, 'sqlite3_column_name');
    const runs = [
      { project: 'p', scene: 'dialogue', word: 'light', scenes: [1], matches: [3, 1] },
      { project: 'q', scene: 'action', word: 'rain', scenes: [2], matches: [2] },
      { project: 'p', scene: 'action', word: 'rain', scenes: [3], matches: [3] },
      { project: 'q', scene: 'dialogue', word: 'light', scenes: [], matches: [] },
    ];
    for (const r of runs) {
      expect(driver.all<{ rid: number }>(SCENE, [r.project, r.scene, 10]).map((x) => x.rid)).toEqual(r.scenes);
      expect(driver.all<{ rid: number }>(RANKED, [r.word, r.project]).map((x) => x.rid)).toEqual(r.matches);
    }
    // Each text prepared once (the driver's cache), its column names read once: a re-prepare inside a run would
    // have made the driver read them again (it cannot know the columns stayed the same).
    expect(prepare.mock.calls.length).toBe(2);
    expect(names.mock.calls.length).toBe(2);
    // The statements themselves: prepared again on a new binding without the guarantee, not with it.
    const plain = new sqlite3.oo1.DB(':memory:');
    plain.exec(schema);
    for (const [conn, expected] of [[plain, 'again'], [db, 'kept']] as const) {
      for (const sql of [SCENE, RANKED]) {
        const stmt = conn.prepare(sql);
        for (const v of ['p', 'q', 'p']) {
          stmt.bind(sql === SCENE ? [v, 'action', 10] : ['rain', v]);
          while (stmt.step());
          stmt.reset(true);
        }
        expect([sql, sqlite3.capi.sqlite3_stmt_status(stmt.pointer as number, 5, 0) > 0 ? 'again' : 'kept']).toEqual([sql, expected]);
        stmt.finalize();
      }
    }
    plain.close();
    driver.close();
  });
});

/**
 * Given sqlite-wasm's module, rows are read through its exported C functions (wasm-columns.ts, issue 16 item 5: oo1's
 * wrapped column calls allocate an argument array and an allocation scope each, the DB worker's garbage collector
 * then stalling foreground calls during the reindex) — with the very values oo1 reads.
 */
describe('the wasm driver reads columns through the exported C functions', () => {
  const values = [
    "SELECT NULL AS n, 0 AS zero, -7 AS neg, 2147483648 AS past32, 9007199254740991 AS maxSafe, -9007199254740991 AS minSafe",
    '9007199254740992 AS twoTo53, 9223372036854775807 AS maxInt, -9223372036854775808 AS minInt, 1.5 AS f, -0.25 AS negF, 1e300 AS big',
    "'' AS empty, 'naïve 中文 🙂' AS uni, 'a' || char(0) || 'b' AS withNul, x'' AS emptyBlob, x'00ff10' AS blob, CAST(3 AS REAL) AS wholeReal",
  ].join(', ');

  function both() {
    const a = new sqlite3.oo1.DB(':memory:');
    const b = new sqlite3.oo1.DB(':memory:');
    return { oo1: createSqliteWasmDriver(a, { capi: sqlite3.capi }), raw: createSqliteWasmDriver(b, { capi: sqlite3.capi, wasm: sqlite3.wasm }) };
  }

  it('gives every type as oo1 does: nulls, safe integers as numbers, larger ones as bigints, text whole (a NUL inside kept), blobs as copies', () => {
    const { oo1, raw } = both();
    const expected = oo1.get<Record<string, unknown>>(values)!;
    expect(typeof expected.maxInt).toBe('bigint');
    expect(raw.get(values)).toEqual(expected);
    expect(raw.get<Record<string, unknown>>(values)).toMatchObject({ maxSafe: 9007199254740991, twoTo53: 9007199254740992n, withNul: 'a\u0000b', uni: 'naïve 中文 🙂' });
    expect(raw.all(`${values} UNION ALL ${values}`)).toEqual(oo1.all(`${values} UNION ALL ${values}`));
    oo1.close();
    raw.close();
  });

  it('reads a row without oo1’s wrapped column calls', () => {
    const { raw } = both();
    raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT, data BLOB, score REAL); INSERT INTO t VALUES (1, 'x', x'01', 0.5), (2, NULL, NULL, NULL)");
    const wrapped = ['sqlite3_column_type', 'sqlite3_column_int64', 'sqlite3_column_double', 'sqlite3_column_text', 'sqlite3_column_blob'].map((f) =>
      vi.spyOn(sqlite3.capi, f as 'sqlite3_column_type'),
    );
    expect(raw.all('SELECT * FROM t ORDER BY id')).toEqual([
      { id: 1, body: 'x', data: new Uint8Array([1]), score: 0.5 },
      { id: 2, body: null, data: null, score: null },
    ]);
    expect(raw.get('SELECT body FROM t WHERE id = ?', [1])).toEqual({ body: 'x' });
    for (const spy of wrapped) expect(spy).not.toHaveBeenCalled();
    raw.close();
  });
});

describe('createColumnReader', () => {
  it('gives no reader (oo1 reads) where the build passes no bigints or lacks a column export', () => {
    expect(createColumnReader(sqlite3.wasm as never)).not.toBeNull();
    expect(createColumnReader({ ...sqlite3.wasm, bigIntEnabled: false })).toBeNull();
    const { sqlite3_column_bytes: _dropped, ...exports } = sqlite3.wasm.exports as Record<string, unknown>;
    expect(createColumnReader({ ...sqlite3.wasm, exports })).toBeNull();
  });
});
