/**
 * The small SQL driver port the engine is written against. Synchronous, like both SQLite bindings we
 * run on (sqlite-wasm's oo1 API in the browser and under Vitest, better-sqlite3 in the Node host).
 *
 * Parameters are positional (`?`) arrays or objects whose keys match `$name` placeholders.
 */
export type SqlValue = string | number | bigint | Uint8Array | null;
export type SqlParam = SqlValue | boolean | undefined;
export type SqlParams = readonly SqlParam[] | Readonly<Record<string, SqlParam>>;
export type Row = Record<string, SqlValue>;

/** What a statement changed. (New ids come back through RETURNING, never last_insert_rowid.) */
export interface RunResult {
  changes: number;
}

export interface SqlDriver {
  /** Which binding this is, for diagnostics and benchmarks. */
  readonly kind: 'sqlite-wasm' | 'better-sqlite3';
  /** Runs one or more statements without parameters (migrations, pragmas). */
  exec(sql: string): void;
  run(sql: string, params?: SqlParams): RunResult;
  all<T = Row>(sql: string, params?: SqlParams): T[];
  get<T = Row>(sql: string, params?: SqlParams): T | undefined;
  /**
   * Runs fn in a transaction (a savepoint when nested): commits when fn returns, rolls back when it
   * throws. fn must be synchronous, so nothing else can interleave with it.
   */
  transaction<T>(fn: () => T): T;
  /** Serialised database image (for export and tests). */
  close(): void;
}

/**
 * Booleans become 0/1 and undefined becomes NULL, the same on every binding. A string with a lone
 * surrogate (half of an emoji cut off, or typed on purpose) becomes well-formed, its lone halves
 * U+FFFD, before it is encoded as UTF-8: sqlite-wasm's encoder did so already, better-sqlite3 wrote
 * the half as-is — invalid UTF-8 in the Node host's database (issue 13). Both now store the same text.
 */
export function normaliseParam(value: SqlParam): SqlValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && !value.isWellFormed()) return value.toWellFormed();
  return value;
}

/**
 * Shared transaction logic: BEGIN IMMEDIATE at depth 0, savepoints below it.
 *
 * A COMMIT can fail after the callback succeeded (the disk or the origin's quota is full, an I/O
 * error, a deferred foreign key). SQLite then either rolled the transaction back itself (SQLITE_FULL,
 * SQLITE_IOERR do) or left it open (SQLITE_BUSY, a deferred constraint): either way it is rolled back
 * here, the depth is back at 0, and the COMMIT's own error — the one a person can act on — is what
 * the caller sees. An error while undoing is secondary and never replaces it.
 *
 * `inTransaction` (sqlite3_get_autocommit) lets a transaction that is somehow still open — a ROLLBACK
 * that itself failed — be closed before the next BEGIN, so one bad moment never poisons the connection.
 */
export function createTransactionRunner(exec: (sql: string) => void, inTransaction?: () => boolean): <T>(fn: () => T) => T {
  let depth = 0;
  const quietly = (sql: string): void => {
    try {
      exec(sql);
    } catch {
      /* secondary: the transaction is already gone (SQLite rolled it back), or the first error says more */
    }
  };
  const undo = (outer: boolean, name: string): void => {
    if (outer) quietly('ROLLBACK');
    else quietly(`ROLLBACK TO ${name}; RELEASE ${name}`);
  };
  return <T>(fn: () => T): T => {
    const outer = depth === 0;
    const name = `sp${depth}`;
    if (outer && inTransaction?.()) quietly('ROLLBACK');
    exec(outer ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
    depth++;
    let result: T;
    try {
      result = fn();
      if (result instanceof Promise) throw new Error('transaction callbacks must be synchronous');
    } catch (err) {
      depth--;
      undo(outer, name);
      throw err;
    }
    depth--;
    try {
      exec(outer ? 'COMMIT' : `RELEASE ${name}`);
    } catch (err) {
      undo(outer, name);
      throw err;
    }
    return result;
  };
}
