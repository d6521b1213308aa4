import type { ExportScope, TableName } from '../../domain/backup';
import type { SqlDriver, SqlParams } from '../store/driver';
import { REGISTRY, type EngineTable, type Sel } from './registry';
import { ownPredicate } from './scope-slices';

/**
 * Replace's removal of the rows a scope owns, in bounded steps (issue 16: it was one DELETE per table in one
 * transaction — at 100,000 turns every foreground call waited behind it, full-text rows included).
 *
 *   count: the rows in scope, a page a step ─▶ remove: children before parents, a page a step ─▶ done
 *
 * A step looks at most `pageRows` rows of one table in key order (rowid, or the primary key of a WITHOUT ROWID
 * table) after where the table's last step ended, and removes those the scope owns (or, for the preview, only
 * lists them: `visit`). Ownership is decided per row by live predicates — registry.ts's, a parent's rows reached
 * by a correlated EXISTS — not by a selection captured once, so a removal cut short (a crash between two of its
 * transactions) resumes by starting again: what is left of the scope is what is still to go. That holds because
 * children go before parents: a child row belongs to the scope through its parent, and every parent is still
 * there until all child tables are done. The full-text rows go with their rows (the delete triggers); the
 * foreign keys' cascades take a child added meanwhile under a parent that goes.
 *
 * `projects` (the last table) goes in one step: the projects whose files a replace clears are read from it
 * (ownedProjects), so a preview made after a crash sees all of them or none.
 */
export interface ScopeRemoval {
  /** One bounded step; false when the removal is over. */
  step(): boolean;
  /** Rows removed so far. */
  readonly rowsDone: number;
  /** Rows in scope, as counted before the removal (at least rowsDone: rows added meanwhile go too). */
  readonly totalRows: number;
  /** What the next step does ('count', the table it removes from, or 'done'): the slices' phase. */
  readonly phase: string;
  /** Rows the steps looked at, counting and removing (a page counts whole): the work done, for a caller's bound. */
  readonly examined: number;
  /** Rows removed from each table. */
  readonly removed: Partial<Record<TableName, number>>;
}

/** Rows a removal step looks at: a few ms of deletes with their index and full-text rows in the browser. */
export const REMOVAL_PAGE_ROWS = 64;
/** Rows a counting step looks at (reads only). */
export const COUNT_PAGE_ROWS = 1024;

type Key = unknown[];

/** The SQL condition "the scope owns this row of `table`" (live, per row); null: the scope owns none. */
export function ownsRow(table: TableName, scope: ExportScope): string | null {
  // Everything goes in a replace of everything (not only what an export of it takes: every setting too).
  if (scope.kind === 'all') return '1';
  const sel: Sel = (outer, parent, column) => `EXISTS (SELECT 1 FROM ${parent} WHERE ${parent}.${column} = ${table}.${outer} AND ${ownsRow(parent, scope) ?? '0'})`;
  const owns = ownPredicate(table, scope, sel);
  return owns === '0' ? null : owns;
}

const keyColumns = (e: EngineTable): readonly string[] => (e.spec.withoutRowid ? e.spec.key : ['rowid']);
const tuple = (cols: readonly string[]) => (cols.length === 1 ? (cols[0] as string) : `(${cols.join(', ')})`);
const marks = (prefix: string, n: number) => tuple(Array.from({ length: n }, (_, i) => `$${prefix}${i}`));

/** A page of `e` after `after`: its key range as SQL and parameters; `end` null: to the end of the table. */
function range(e: EngineTable, after: Key | null, end: Key | null): { where: string; bind: Record<string, unknown> } {
  const cols = keyColumns(e);
  const parts: string[] = [];
  const bind: Record<string, unknown> = {};
  if (after) {
    parts.push(`${tuple(cols)} > ${marks('a', cols.length)}`);
    after.forEach((v, i) => (bind[`a${i}`] = v));
  }
  if (end) {
    parts.push(`${tuple(cols)} <= ${marks('b', cols.length)}`);
    end.forEach((v, i) => (bind[`b${i}`] = v));
  }
  return { where: parts.length ? parts.join(' AND ') : '1', bind };
}

/** The key of the `rows`-th row after `after` (the page's last), or null when fewer are left (the last page). */
function pageEnd(driver: SqlDriver, e: EngineTable, after: Key | null, rows: number): Key | null {
  const cols = keyColumns(e);
  const { where, bind } = range(e, after, null);
  const sql = `SELECT ${cols.map((c, i) => `${c} AS k${i}`).join(', ')} FROM ${e.spec.name} WHERE ${where} ORDER BY ${cols.join(', ')} LIMIT 1 OFFSET $skip`;
  const row = driver.get<Record<string, unknown>>(sql, { ...bind, skip: rows - 1 } as SqlParams);
  return row ? cols.map((_, i) => row[`k${i}`]) : null;
}

export function startScopeRemoval(
  driver: SqlDriver,
  scope: ExportScope,
  opts: {
    /** Instead of deleting, hand each page's rows in scope (rowid as `__rowid`, all columns of a WITHOUT ROWID row) here: the preview. */
    visit?: (e: EngineTable, rows: Record<string, unknown>[]) => void;
    /** Count the rows first (the apply's progress); the preview does not. */
    count?: boolean;
    /** Only count them (a preview of a replace of everything: every row is gone, none needs listing). */
    countOnly?: boolean;
    pageRows?: number;
    countPageRows?: number;
  } = {},
): ScopeRemoval {
  const tables = [...REGISTRY]
    .reverse()
    .map((e) => ({ e, owns: ownsRow(e.spec.name, scope) }))
    .filter((t): t is { e: EngineTable; owns: string } => t.owns !== null);
  const scopeParam = scope.kind === 'all' ? {} : { scope: scope.id };
  const withScope = (sql: string, bind: Record<string, unknown>): SqlParams | undefined => {
    const all = sql.includes('$scope') ? { ...scopeParam, ...bind } : bind;
    return Object.keys(all).length ? (all as SqlParams) : undefined;
  };
  const removed: Partial<Record<TableName, number>> = {};
  const countedBy: Partial<Record<TableName, number>> = {};
  let stage: 'count' | 'remove' | 'done' = opts.count || opts.countOnly ? 'count' : 'remove';
  let at = 0;
  let after: Key | null = null;
  let rowsDone = 0;
  let counted = 0;
  let examined = 0;

  /** One page of the current table: its rows in scope counted, removed or visited; false when the table is done. */
  function page(): boolean {
    const { e, owns } = tables[at] as { e: EngineTable; owns: string };
    const name = e.spec.name;
    const wholeTable = stage === 'remove' && name === 'projects';
    const rows = stage === 'count' ? (opts.countPageRows ?? COUNT_PAGE_ROWS) : (opts.pageRows ?? REMOVAL_PAGE_ROWS);
    const end = wholeTable ? null : pageEnd(driver, e, after, rows);
    examined += rows;
    const { where, bind } = range(e, after, end);
    const cond = `${where} AND ${owns}`;
    if (stage === 'count') {
      const sql = `SELECT COUNT(*) AS n FROM ${name} WHERE ${cond}`;
      const n = driver.get<{ n: number }>(sql, withScope(sql, bind))?.n ?? 0;
      countedBy[name] = (countedBy[name] ?? 0) + n;
      counted += n;
    } else if (opts.visit) {
      const sql = `SELECT ${e.spec.withoutRowid ? '-1 AS __rowid, *' : 'rowid AS __rowid'} FROM ${name} WHERE ${cond}`;
      const rows = driver.all<Record<string, unknown>>(sql, withScope(sql, bind));
      opts.visit(e, rows);
      removed[name] = (removed[name] ?? 0) + rows.length;
      rowsDone += rows.length;
    } else {
      const sql = `DELETE FROM ${name} WHERE ${cond}`;
      const n = driver.run(sql, withScope(sql, bind)).changes;
      removed[name] = (removed[name] ?? 0) + n;
      rowsDone += n;
    }
    after = end;
    return end !== null;
  }

  return {
    step() {
      if (stage === 'done') return false;
      if (at < tables.length && page()) return true;
      // The table is done: the next one, or the next stage.
      after = null;
      if (at + 1 < tables.length) at++;
      else if (stage === 'count' && !opts.countOnly) {
        stage = 'remove';
        at = 0;
      } else stage = 'done';
      return stage !== 'done';
    },
    get rowsDone() {
      return opts.countOnly ? counted : rowsDone;
    },
    get totalRows() {
      return Math.max(counted, rowsDone);
    },
    get examined() {
      return examined;
    },
    get phase() {
      return stage === 'remove' ? (tables[at]?.e.spec.name ?? 'done') : stage;
    },
    removed: opts.countOnly ? countedBy : removed,
  };
}
