import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../domain/log';
import { createBetterSqlite3Driver } from './better-sqlite3-driver';
import { createTransactionRunner, type SqlDriver } from './driver';
import { openWasmDatabase } from './open-wasm';

/**
 * Issue 13 defect 1: a COMMIT that fails (disk or quota full, I/O error, a deferred foreign key) must
 * leave the connection usable, surface its own error and keep nothing of the failed transaction.
 */
describe('createTransactionRunner: a failed COMMIT', () => {
  /** A fake connection that keeps a log and fails the statements it is told to, once each. */
  function fakeConnection(failOnce: string[]) {
    const log: string[] = [];
    let open = false;
    const exec = (sql: string) => {
      log.push(sql);
      const i = failOnce.indexOf(sql);
      if (i >= 0) {
        failOnce.splice(i, 1);
        // Like SQLITE_FULL / SQLITE_IOERR: SQLite has already rolled the transaction back.
        if (sql === 'COMMIT') open = false;
        throw new Error(`SQLITE_IOERR: failed ${sql}`);
      }
      if (sql === 'BEGIN IMMEDIATE') {
        if (open) throw new Error('cannot start a transaction within a transaction');
        open = true;
      }
      if (sql === 'COMMIT' || sql === 'ROLLBACK') {
        if (!open) throw new Error('cannot rollback - no transaction is active');
        open = false;
      }
      if (sql.startsWith('ROLLBACK TO') && !open) throw new Error(`no such savepoint: ${sql.split(' ')[2]}`);
    };
    return { log, exec, inTransaction: () => open };
  }

  it('throws the COMMIT error itself, and the next transaction starts at depth 0 (not `SAVEPOINT sp-1`)', () => {
    const conn = fakeConnection(['COMMIT']);
    const tx = createTransactionRunner(conn.exec, conn.inTransaction);
    expect(() => tx(() => 1)).toThrow('SQLITE_IOERR: failed COMMIT');
    expect(tx(() => 2)).toBe(2);
    expect(conn.log.filter((s) => s.startsWith('SAVEPOINT') || s.startsWith('ROLLBACK TO'))).toEqual([]);
    expect(conn.log.slice(-2)).toEqual(['BEGIN IMMEDIATE', 'COMMIT']);
    // Nesting still works after the failure.
    expect(tx(() => tx(() => 3))).toBe(3);
    expect(conn.log.slice(-4)).toEqual(['BEGIN IMMEDIATE', 'SAVEPOINT sp1', 'RELEASE sp1', 'COMMIT']);
  });

  it('rolls back a transaction SQLite left open after the failed COMMIT, so the next BEGIN succeeds', () => {
    const log: string[] = [];
    let open = false;
    let failCommit = true;
    const exec = (sql: string) => {
      log.push(sql);
      if (sql === 'BEGIN IMMEDIATE') {
        if (open) throw new Error('cannot start a transaction within a transaction');
        open = true;
      } else if (sql === 'COMMIT') {
        // Like a deferred foreign key or SQLITE_BUSY: the transaction stays open.
        if (failCommit) {
          failCommit = false;
          throw new Error('FOREIGN KEY constraint failed');
        }
        open = false;
      } else if (sql === 'ROLLBACK') open = false;
    };
    const tx = createTransactionRunner(exec, () => open);
    expect(() => tx(() => 'x')).toThrow('FOREIGN KEY constraint failed');
    expect(open).toBe(false);
    expect(tx(() => 'y')).toBe('y');
  });

  it('an error thrown by the callback is the one the caller sees, even if the rollback fails too', () => {
    const conn = fakeConnection(['ROLLBACK']);
    const tx = createTransactionRunner(conn.exec, conn.inTransaction);
    expect(() =>
      tx(() => {
        throw new Error('the real cause');
      }),
    ).toThrow('the real cause');
    // The failed ROLLBACK left the transaction open: the runner closes it before the next BEGIN.
    expect(tx(() => 'next')).toBe('next');
  });
});

/** The same on both real bindings, with a COMMIT that really fails: a deferred foreign key. */
const SCHEMA = `
  CREATE TABLE parent (id INTEGER PRIMARY KEY);
  CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
`;

function commitFailureSurvives(driver: SqlDriver): void {
  driver.exec('PRAGMA foreign_keys = ON');
  driver.exec(SCHEMA);
  expect(() =>
    driver.transaction(() => {
      driver.run('INSERT INTO parent (id) VALUES (1)');
      driver.run('INSERT INTO child (id, parent_id) VALUES (1, 99)');
    }),
  ).toThrow(/FOREIGN KEY constraint failed/);
  // Nothing of the failed transaction is visible.
  expect(driver.get('SELECT COUNT(*) AS n FROM parent')).toEqual({ n: 0 });
  expect(driver.get('SELECT COUNT(*) AS n FROM child')).toEqual({ n: 0 });
  // The connection takes writes again, nested ones included.
  driver.transaction(() => {
    driver.run('INSERT INTO parent (id) VALUES (2)');
    driver.transaction(() => driver.run('INSERT INTO child (id, parent_id) VALUES (2, 2)'));
  });
  expect(driver.get('SELECT COUNT(*) AS n FROM child')).toEqual({ n: 1 });
}

describe('a COMMIT that fails on a real connection', () => {
  it('sqlite-wasm: the error is the foreign-key failure, nothing is kept, and the next write works', async () => {
    const opened = await openWasmDatabase({ persistent: false, log: silentLogger });
    try {
      commitFailureSurvives(opened.driver);
    } finally {
      opened.driver.close();
    }
  });

  it('better-sqlite3: the same', () => {
    const driver = createBetterSqlite3Driver(new Database(':memory:'));
    try {
      commitFailureSurvives(driver);
    } finally {
      driver.close();
    }
  });
});

/** Issue 13: text with a lone surrogate (half an emoji) is stored as valid UTF-8 on both bindings. */
describe('a lone surrogate', () => {
  const store = (driver: SqlDriver) => {
    driver.exec('CREATE TABLE t (v TEXT)');
    driver.run('INSERT INTO t (v) VALUES (?)', ['a\ud800b']);
    driver.run('INSERT INTO t (v) VALUES ($v)', { v: '\udfffz' });
    driver.run('INSERT INTO t (v) VALUES (?)', ['😀 whole pairs stay']);
    return driver.all<{ h: string; v: string }>('SELECT hex(v) AS h, v FROM t');
  };
  const expected = [
    { h: '61EFBFBD62', v: 'a\ufffdb' },
    { h: 'EFBFBD7A', v: '\ufffdz' },
    { h: 'F09F98802077686F6C652070616972732073746179', v: '😀 whole pairs stay' },
  ];

  it('sqlite-wasm stores U+FFFD in its place', async () => {
    const opened = await openWasmDatabase({ persistent: false, log: silentLogger });
    try {
      expect(store(opened.driver)).toEqual(expected);
    } finally {
      opened.driver.close();
    }
  });

  it('better-sqlite3 the same, never the half as invalid UTF-8', () => {
    const driver = createBetterSqlite3Driver(new Database(':memory:'));
    try {
      expect(store(driver)).toEqual(expected);
    } finally {
      driver.close();
    }
  });
});
