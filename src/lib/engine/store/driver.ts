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

/** Booleans become 0/1 and undefined becomes NULL, the same on every binding. */
export function normaliseParam(value: SqlParam): SqlValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** Shared transaction logic: BEGIN IMMEDIATE at depth 0, savepoints below it. */
export function createTransactionRunner(exec: (sql: string) => void): <T>(fn: () => T) => T {
  let depth = 0;
  return <T>(fn: () => T): T => {
    const name = `sp${depth}`;
    exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
    depth++;
    try {
      const result = fn();
      if (result instanceof Promise) throw new Error('transaction callbacks must be synchronous');
      depth--;
      exec(depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
      return result;
    } catch (err) {
      depth--;
      exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
      throw err;
    }
  };
}
