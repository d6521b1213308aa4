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

/**
 * A slice of a resumable background job, committed without syncing the WAL (issue 16 item 5: one slice's COMMIT on
 * OPFS paid a FileSystemSyncAccessHandle.flush — 66 ms for 120 KiB once — and a foreground call queued behind it
 * waited for all of it). Only for work that writes where it stands in the same transaction as the work itself, so
 * that losing the slice loses nothing but work the job redoes (docs/decisions.md).
 *
 * The connection runs WAL at synchronous=FULL. At NORMAL a WAL COMMIT is still atomic and the database consistent;
 * only transactions after the last WAL sync may roll back on a power cut or an OS crash (a crash of the tab or the
 * worker loses nothing: the frames are written). Every checkpoint still syncs, and the next COMMIT at FULL syncs
 * the WAL and with it every frame before it — see `syncCommitted`.
 *
 * The level is lowered just before BEGIN and set back right after COMMIT (or ROLLBACK) in the same synchronous run:
 * no other call can run in between, so no other write commits at NORMAL. One person's write does, and is synced
 * before anyone is answered: turn.prepare's message (TwoStep.syncInThen), whose run commits at FULL right after its
 * context build, or syncCommitted when no run is stored (issue 16 item 2). If setting it back fails because
 * a transaction is still open (a ROLLBACK that failed), that transaction is rolled back and the level set again;
 * failing that, the error is thrown rather than the connection left at NORMAL. A connection already at NORMAL or
 * OFF (tests, a host that chose it) is left as it is.
 */
export function resumableTransaction<T>(driver: SqlDriver, fn: () => T): T {
  const level = driver.get<{ synchronous: number }>('PRAGMA synchronous')?.synchronous ?? 0;
  if (level <= SYNCHRONOUS_NORMAL) return driver.transaction(fn);
  driver.exec(`PRAGMA synchronous = ${SYNCHRONOUS_NORMAL}`);
  try {
    return driver.transaction(fn);
  } finally {
    try {
      driver.exec(`PRAGMA synchronous = ${level}`);
    } catch {
      try {
        driver.exec('ROLLBACK');
      } catch {
        /* nothing open: the retry below says what is wrong */
      }
      driver.exec(`PRAGMA synchronous = ${level}`);
    }
  }
}

const SYNCHRONOUS_NORMAL = 1;

/**
 * Makes every transaction committed so far durable: one COMMIT at the connection's own level (FULL), which syncs
 * the WAL and so every frame before it — what a resumable job runs once its last slice (the one that says it is
 * done) has committed at NORMAL, before it answers. The COMMIT rewrites the database header's user_version with
 * the value it has (the engine does not use it: migrations are kept in their own table), so it appends one frame:
 * a transaction that changes nothing commits without writing, and without syncing.
 *
 * A driver that checkpoints between slices (checkpoint-slices.ts) runs its checkpoint in a transaction's place when
 * one is due; not in this one's (isSyncBarrier): the end of a job is not the moment to copy the WAL into the file.
 */
export function syncCommitted(driver: SqlDriver): void {
  const write = (): void => {
    const version = driver.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
    driver.exec(`PRAGMA user_version = ${Number(version)}`);
  };
  barriers.add(write);
  driver.transaction(write);
}

const barriers = new WeakSet<object>();

/** Whether a transaction's callback is syncCommitted's (a wrapper that would run something in its place must not). */
export const isSyncBarrier = (fn: unknown): boolean => typeof fn === 'function' && barriers.has(fn);
