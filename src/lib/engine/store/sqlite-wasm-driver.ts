import type { Database, PreparedStatement, BindingSpec } from '@sqlite.org/sqlite-wasm';
import { countedTransaction } from './io-counters';
import { createColumnReader, type RawWasm } from './wasm-columns';
import {
  createTransactionRunner,
  normaliseParam,
  type Row,
  type RunResult,
  type SqlDriver,
  type SqlParams,
  type SqlValue,
} from './driver';

/** Prepared statements are cached per SQL text: the hot paths (store a turn, recall) reuse them. */
const CACHE_LIMIT = 256;

/**
 * The C calls the driver needs beyond oo1: whether a transaction is open (sqlite3_get_autocommit), and how often a
 * statement was prepared again after a schema change (sqlite3_stmt_status, SQLITE_STMTSTATUS_REPREPARE).
 */
export interface AutocommitProbe {
  sqlite3_get_autocommit(db: number): number;
  sqlite3_stmt_status?(stmt: number, op: number, resetFlag: number): number;
  sqlite3_db_config?(db: number, op: number, onoff: number, pOut: number): number;
}

/** sqlite3.h: SQLITE_STMTSTATUS_REPREPARE. */
const STMTSTATUS_REPREPARE = 5;
/** sqlite3.h: SQLITE_DBCONFIG_ENABLE_QPSG. */
export const DBCONFIG_ENABLE_QPSG = 1007;

/**
 * The query planner stability guarantee on, for the connection's life (issue 17). Without it SQLite lets some plans
 * depend on the values bound to a statement, and marks such a statement to be prepared again whenever one of those
 * parameters is bound — i.e. on every run, whatever the value. SQLite 3.54 does that for shapes the engine runs on
 * every call: an FTS5 MATCH joined to a row filter (`MATCH ? … AND e.project_id = ?`, episode recall's ranking) and
 * two equalities under ORDER BY … LIMIT (`project_id = ? AND scene_type = ? ORDER BY rid DESC LIMIT ?`, its scene
 * lane) were prepared again on 19 of 20 runs, and each re-prepare also made the driver read the column names again.
 * Profiled in Chromium at 10,000 episodes, that was episode.query's SQL being planned anew on every query.
 *
 * What the guarantee gives up here: the plans that look at bound values — none the engine relies on. Its LIKE
 * patterns (messages, memories) are not on indexed columns, its partial indexes are on `IS NOT NULL` (implied by
 * `= ?` whatever the value) or on constants no statement binds, and this build has no STAT4.
 */
function fixPlans(db: Database, capi: AutocommitProbe | undefined): void {
  capi?.sqlite3_db_config?.(db.pointer as number, DBCONFIG_ENABLE_QPSG, 1, 0);
}

export interface WasmDriverOptions {
  /** Lets the transaction runner see a transaction SQLite left open (without it: assumed closed), and rows be read with their column names kept per statement. */
  capi?: AutocommitProbe;
  /**
   * Turns a failure into the one that says what happened (store/opfs-faults.ts: an I/O error that was
   * really a full quota becomes SQLITE_FULL). Returns the error to throw.
   */
  translateError?: (err: unknown) => unknown;
  /**
   * sqlite-wasm's module (`sqlite3.wasm`): rows are then read through its exported C functions, not oo1's wrapped
   * calls (wasm-columns.ts: a column read allocates only its value). Needs `capi` too (the column names kept).
   */
  wasm?: RawWasm;
}

export function createSqliteWasmDriver(db: Database, opts: WasmDriverOptions = {}): SqlDriver {
  const { capi, translateError } = opts;
  const readColumn = opts.wasm ? createColumnReader(opts.wasm) : null;
  fixPlans(db, capi);
  /** Runs one driver operation; a failure leaves as the error that names its real cause. */
  const guard = <T>(op: () => T): T => {
    if (!translateError) return op();
    try {
      return op();
    } catch (err) {
      throw translateError(err);
    }
  };
  const cache = new Map<string, PreparedStatement>();

  function statement(sql: string): PreparedStatement {
    let stmt = cache.get(sql);
    if (stmt) {
      // Refresh its place in the LRU order.
      cache.delete(sql);
      cache.set(sql, stmt);
      return stmt;
    }
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
    if (cache.size > CACHE_LIMIT) {
      const [oldestSql, oldest] = cache.entries().next().value as [string, PreparedStatement];
      cache.delete(oldestSql);
      oldest.finalize();
    }
    return stmt;
  }

  function bind(stmt: PreparedStatement, params: SqlParams | undefined): void {
    if (params === undefined) return;
    if (Array.isArray(params)) {
      if (params.length > 0) stmt.bind((params as readonly unknown[]).map((p) => normaliseParam(p as never)) as BindingSpec);
      return;
    }
    const named: Record<string, SqlValue> = {};
    for (const [key, value] of Object.entries(params)) named[`$${key}`] = normaliseParam(value);
    stmt.bind(named as BindingSpec);
  }

  /**
   * A statement's column names, read from C once and kept while the statement is the same: oo1's `get({})` decodes
   * every column's name from wasm memory on every row (half of reading a 12-column row). A schema change makes SQLite
   * prepare the statement again (`SELECT *` may then have other columns): its re-prepare count says so, and the names
   * are read again. Without the status call, rows are read as oo1 reads them.
   */
  const names = new WeakMap<PreparedStatement, { reprepares: number; names: string[] }>();
  const stmtStatus = capi?.sqlite3_stmt_status?.bind(capi);
  function columnNames(stmt: PreparedStatement): string[] | null {
    if (!stmtStatus) return null;
    const reprepares = stmtStatus(stmt.pointer as number, STMTSTATUS_REPREPARE, 0);
    const known = names.get(stmt);
    if (known && known.reprepares === reprepares) return known.names;
    const fresh = Array.from({ length: stmt.columnCount }, (_, i) => stmt.getColumnName(i) as string);
    names.set(stmt, { reprepares, names: fresh });
    return fresh;
  }
  /** The current row as an object of column name → value (call after a step() that returned true). */
  function rowOf<T>(stmt: PreparedStatement, cols: string[] | null): T {
    if (!cols) return stmt.get({}) as T;
    if (readColumn) {
      const row: Record<string, unknown> = {};
      const at = stmt.pointer as number;
      for (let i = 0; i < cols.length; i++) row[cols[i] as string] = readColumn(at, i);
      return row as T;
    }
    const values = stmt.get([]) as unknown[];
    const row: Record<string, unknown> = {};
    for (let i = 0; i < cols.length; i++) row[cols[i] as string] = values[i];
    return row as T;
  }

  function withStatement<T>(sql: string, params: SqlParams | undefined, use: (stmt: PreparedStatement) => T): T {
    const stmt = statement(sql);
    try {
      bind(stmt, params);
      return use(stmt);
    } finally {
      stmt.reset(true);
    }
  }

  const exec = (sql: string): void => {
    guard(() => db.exec(sql));
  };

  return {
    kind: 'sqlite-wasm',
    exec,
    run(sql, params): RunResult {
      return guard(() => {
        withStatement(sql, params, (stmt) => {
          while (stmt.step()) {
            /* drain RETURNING rows, if any */
          }
        });
        return { changes: Number(db.changes()) };
      });
    },
    all<T = Row>(sql: string, params?: SqlParams): T[] {
      return guard(() =>
        withStatement(sql, params, (stmt) => {
          const rows: T[] = [];
          if (!stmt.step()) return rows;
          // After the first step: a re-prepare for a schema change happens inside it.
          const cols = columnNames(stmt);
          do rows.push(rowOf<T>(stmt, cols));
          while (stmt.step());
          return rows;
        }),
      );
    },
    get<T = Row>(sql: string, params?: SqlParams): T | undefined {
      return guard(() => withStatement(sql, params, (stmt) => (stmt.step() ? rowOf<T>(stmt, columnNames(stmt)) : undefined)));
    },
    transaction: (() => {
      const runner = createTransactionRunner(exec, capi ? () => capi.sqlite3_get_autocommit(db.pointer as number) === 0 : undefined);
      // Slow ones keep their file I/O where it is counted (OPFS: store/io-counters.ts).
      return <T>(fn: () => T): T => countedTransaction(() => runner(fn));
    })(),
    close(): void {
      for (const stmt of cache.values()) stmt.finalize();
      cache.clear();
      db.close();
    },
  };
}
