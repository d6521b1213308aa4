import {
  conflictItem,
  decide,
  emptyCounts,
  sameRow,
  type ConflictItem,
  type EngramExport,
  type ExportScope,
  type ImportMode,
  type Row,
  type RowOutcome,
  type TableCounts,
  type TableName,
} from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import { writeFtsRow } from './fts-index';
import { createDryRunTarget, type ImportTarget } from './import-dry-run';
import { REGISTRY, type EngineTable } from './registry';
import { toSqlValue } from './row-codec';
import { createRowLookup, type LocalRow } from './row-lookup';
import { startScopeRemoval, type ScopeRemoval } from './scope-removal';

/**
 * Writes a validated export into the database — synchronously, inside the caller's transaction, so it
 * is all or nothing. The preview runs the very same code on a dry-run target that writes nothing
 * (import-dry-run.ts), so what it announces is what an apply does. Per row (domain/backup/diff.ts decides):
 *
 *   references rewritten ─▶ same identity? ─ yes ─▶ skip | update | conflict
 *                                        └─ no ──▶ a duplicate? ─ yes ─▶ skip (or conflict)
 *                                                              └─ no ──▶ add (keeping its id when free)
 *
 * A row kept as it was because of a conflict keeps the rows that hang off it too (a conflicting
 * conversation does not take the file's messages). Replace first deletes the rows the file's scope
 * owns (everything, a project, a conversation) a page a step (scope-removal.ts), then writes the file with the
 * file winning.
 *
 * `startImport` does the same a few rows at a time (`step`), so that a large file is applied in short
 * transactions with the worker free in between (issue 16, import-service.ts); `applyImport` runs it to the end
 * in the caller's one transaction (tests). With `dryRun` the same code writes nothing (import-dry-run.ts): the
 * preview counts what an apply would do, a few rows at a time, with the worker free in between.
 */
export interface ApplyReport {
  mode: ImportMode;
  tables: Record<TableName, TableCounts>;
  /** The first conflicts (ids only), for the preview's list. */
  conflicts: ConflictItem[];
  conflictsTotal: number;
  /** Projects whose setting files a replace clears: those the scope owned before the import. */
  clearProjects: string[];
}

const MAX_LISTED_CONFLICTS = 100;

type Blocked = 'conflict' | 'duplicate';

/** Rows one step writes (a step is the unit between two looks at the clock). */
const ROWS_PER_STEP = 5;

export interface ImportRun {
  /** One bit of work inside the caller's transaction (at most `maxRows` rows); false when the whole file is written. */
  step(maxRows?: number): boolean;
  readonly rowsDone: number;
  readonly totalRows: number;
  /** Replace's removal of the scope's rows is done (a resumed run must not remove what it already wrote). */
  readonly removed: boolean;
  /**
   * What the next step does: `removal:…` (counting, or the table it removes from), the table whose rows it writes, or
   * 'done' (runInSlices' phase: a slice ends where it changes).
   */
  readonly phase: string;
  /** Replace's removal: rows removed so far of those in scope (null for a merge). */
  readonly removal: { rowsDone: number; totalRows: number; examined: number; done: boolean } | null;
  report(): ApplyReport;
}

export function applyImport(driver: SqlDriver, file: EngramExport, mode: ImportMode): ApplyReport {
  const run = startImport(driver, file, mode);
  while (run.step()) {
    /* to the end, in the caller's transaction */
  }
  return run.report();
}

/**
 * `skipRemoval`: a replace resumed after a crash, whose removal committed before (what is there now in its
 * scope is what this file already wrote; writing it again with the file winning gives the same end).
 */
export function startImport(
  driver: SqlDriver,
  file: EngramExport,
  mode: ImportMode,
  opts: { skipRemoval?: boolean; clearProjects?: string[]; dryRun?: boolean } = {},
): ImportRun {
  const target: ImportTarget = opts.dryRun ? createDryRunTarget(driver) : databaseTarget(driver);
  const { lookup } = target;
  const counts = Object.fromEntries(
    REGISTRY.map((e) => [e.spec.name, { ...emptyCounts(), incoming: file.tables[e.spec.name].length }]),
  ) as Record<TableName, TableCounts>;
  const conflicts: ConflictItem[] = [];
  let conflictsTotal = 0;
  const idMap = new Map<TableName, Map<unknown, unknown>>(REGISTRY.map((e) => [e.spec.name, new Map()]));
  const blocked = new Map<TableName, Map<unknown, Blocked>>(REGISTRY.map((e) => [e.spec.name, new Map()]));
  const inserted = new Map<TableName, Set<number>>(REGISTRY.map((e) => [e.spec.name, new Set()]));

  const clearProjects = opts.clearProjects ?? ownedProjects(driver, file.scope);
  let removed = mode !== 'replace' || opts.skipRemoval === true;

  const keyColumn = (e: EngineTable) => (e.spec.key.length === 1 ? (e.spec.key[0] as string) : null);

  function block(e: EngineTable, row: Row, why: Blocked): void {
    const k = keyColumn(e);
    if (k) blocked.get(e.spec.name)?.set(row[k], why);
  }

  function conflict(e: EngineTable, row: Row): 'conflict' {
    block(e, row, 'conflict');
    conflictsTotal++;
    if (conflicts.length < MAX_LISTED_CONFLICTS) conflicts.push(conflictItem(e.spec, row));
    return 'conflict';
  }

  /** Remembers that the file's row is the local row under another key (a surrogate id, a deduplicated memory). */
  function mapKey(e: EngineTable, fileRow: Row, local: Row): void {
    const k = keyColumn(e);
    if (k && fileRow[k] !== local[k]) idMap.get(e.spec.name)?.set(fileRow[k], local[k]);
  }

  function identity(e: EngineTable, row: Row): { local?: LocalRow; idTaken: boolean } {
    const { spec } = e;
    const byKey = lookup.byKey(e, row);
    if (!spec.surrogate) return { local: byKey, idTaken: false };
    // Integer ids of two databases collide by chance: the same id is the same row only if it is the
    // same message (session, turn, role, time) — or the same unique block, for summaries.
    if (byKey && (spec.natural ?? []).every((c) => byKey.row[c] === row[c])) return { local: byKey, idTaken: true };
    const natural = spec.naturalUnique && spec.natural ? lookup.byColumns(e, spec.natural, row)[0] : undefined;
    return { local: natural, idTaken: byKey !== undefined };
  }

  function duplicate(e: EngineTable, row: Row): { same: boolean; local: LocalRow } | undefined {
    const { spec, duplicate: rule } = e;
    const fresh = (l: LocalRow) => !inserted.get(spec.name)?.has(l.rowid);
    if (spec.surrogate && spec.natural && !spec.naturalUnique) {
      const local = lookup.byColumns(e, spec.natural, row).find((l) => fresh(l) && sameRow(spec, row, l.row, [spec.surrogate as string]));
      return local ? { same: true, local } : undefined;
    }
    if (!rule || (rule.applies && !rule.applies(row))) return undefined;
    // With `same` the rule mirrors a unique index: rows of this very import count too.
    const local = lookup.byColumns(e, rule.columns, row, rule.where).find((l) => rule.same !== undefined || fresh(l));
    if (!local) return undefined;
    return { same: (rule.same ?? []).every((c) => local.row[c] === row[c]), local };
  }

  const { update } = target;
  function insert(e: EngineTable, row: Row, keepId: boolean): void {
    const rowid = target.insert(e, row, keepId);
    if (e.spec.withoutRowid) return;
    inserted.get(e.spec.name)?.add(rowid);
    if (e.spec.surrogate && !keepId) idMap.get(e.spec.name)?.set(row[e.spec.surrogate], rowid);
  }

  function importRow(e: EngineTable, fileRow: Row, forceConflict: boolean): RowOutcome {
    const { spec } = e;
    const row: Row = { ...fileRow };
    for (const ref of spec.refs) {
      const v = fileRow[ref.column];
      if (v === null) continue;
      const why = blocked.get(ref.table as TableName)?.get(v);
      if (why) {
        block(e, fileRow, why);
        return why === 'conflict' ? 'conflict' : 'skip';
      }
      const mapped = idMap.get(ref.table as TableName)?.get(v);
      if (mapped !== undefined) row[ref.column] = mapped;
    }
    for (const ref of spec.softRefs ?? []) {
      const mapped = fileRow[ref.column] === null ? undefined : idMap.get(ref.table as TableName)?.get(fileRow[ref.column]);
      if (mapped !== undefined) row[ref.column] = mapped;
    }
    const { local, idTaken } = identity(e, row);
    if (local) {
      let outcome = decide({ table: spec, mode, incoming: row, local: local.row });
      if (forceConflict && outcome !== 'skip') outcome = 'conflict';
      mapKey(e, fileRow, local.row);
      if (outcome === 'update') update(e, local, row);
      return outcome === 'conflict' ? conflict(e, fileRow) : outcome;
    }
    const dup = duplicate(e, row);
    if (dup) {
      mapKey(e, fileRow, dup.local.row);
      if (!dup.same) return conflict(e, fileRow);
      if (e.duplicate?.blocksChildren) block(e, fileRow, 'duplicate');
      return 'skip';
    }
    if (forceConflict) return conflict(e, fileRow);
    insert(e, row, !idTaken);
    return 'add';
  }

  const totalRows = REGISTRY.reduce((n, e) => n + file.tables[e.spec.name].length, 0);
  let table = 0;
  let next = 0;
  let rowsDone = 0;
  let forceConflict: boolean | null = null;
  let removal: ScopeRemoval | null = null;

  function step(maxRows = ROWS_PER_STEP): boolean {
    if (!removed) {
      // A page a step (scope-removal.ts); the rows are written once the whole removal is done.
      removal ??= target.startRemoval(file.scope);
      if (removal.step()) return true;
      for (const [name, n] of Object.entries(removal.removed)) counts[name as TableName].removed = n;
      removed = true;
      return true;
    }
    const e = REGISTRY[table];
    if (!e) return false;
    const rows = file.tables[e.spec.name];
    // One conflicting version makes the whole history a conflict (see EngineTable.atomic).
    forceConflict ??=
      e.atomic === true &&
      mode === 'merge' &&
      rows.some((r) => {
        const local = lookup.byKey(e, r);
        return local !== undefined && decide({ table: e.spec, mode, incoming: r, local: local.row }) === 'conflict';
      });
    const c = counts[e.spec.name];
    const end = Math.min(rows.length, next + Math.max(1, Math.min(ROWS_PER_STEP, maxRows)));
    for (; next < end; next++, rowsDone++) c[importRow(e, rows[next] as Row, forceConflict)]++;
    if (next >= rows.length) {
      table++;
      next = 0;
      forceConflict = null;
    }
    return table < REGISTRY.length;
  }

  return {
    step,
    get rowsDone() {
      return rowsDone;
    },
    totalRows,
    get removed() {
      return removed;
    },
    get phase() {
      return removed ? (REGISTRY[table]?.spec.name ?? 'done') : `removal:${removal?.phase ?? 'start'}`;
    },
    get removal() {
      return mode === 'replace' ? { rowsDone: removal?.rowsDone ?? 0, totalRows: removal?.totalRows ?? 0, examined: removal?.examined ?? 0, done: removed } : null;
    },
    report: () => ({ mode, tables: counts, conflicts, conflictsTotal, clearProjects }),
  };
}

export function ownedProjects(driver: SqlDriver, scope: ExportScope): string[] {
  if (scope.kind === 'session') return [];
  if (scope.kind === 'project') return [scope.id];
  return driver.all<{ id: string }>('SELECT id FROM projects ORDER BY id').map((r) => r.id);
}

/** The import's writes into the database (an apply); createDryRunTarget is the preview's. */
function databaseTarget(driver: SqlDriver): ImportTarget {
  return {
    lookup: createRowLookup(driver),
    insert(e, row, keepId) {
      const { spec } = e;
      const cols = Object.keys(spec.columns).filter((c) => keepId || c !== spec.surrogate);
      const values = cols.map((c) => toSqlValue(spec, c, row[c]));
      const sql = `INSERT INTO ${spec.name} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
      if (spec.withoutRowid) {
        driver.run(sql, values);
        return -1;
      }
      const rowid = driver.get<{ r: number }>(`${sql} RETURNING rowid AS r`, values)?.r as number;
      if (e.fts) writeFtsRow(driver, e.fts, { rowid, row, replace: false });
      return rowid;
    },
    update(e, local, row) {
      const { spec } = e;
      const cols = Object.keys(spec.columns).filter((c) => c !== spec.surrogate && !spec.key.includes(c));
      if (cols.length === 0) return;
      const set = cols.map((c) => `${c} = ?`).join(', ');
      const values = cols.map((c) => toSqlValue(spec, c, row[c]));
      if (spec.withoutRowid) {
        driver.run(`UPDATE ${spec.name} SET ${set} WHERE ${spec.key.map((k) => `${k} IS ?`).join(' AND ')}`, [
          ...values,
          ...spec.key.map((k) => toSqlValue(spec, k, local.row[k])),
        ]);
        return;
      }
      driver.run(`UPDATE ${spec.name} SET ${set} WHERE rowid = ?`, [...values, local.rowid]);
      if (e.clears) driver.run(`DELETE FROM ${e.clears.table} WHERE ${e.clears.column} = ?`, [local.rowid]);
      if (e.fts) writeFtsRow(driver, e.fts, { rowid: local.rowid, row, replace: true });
    },
    startRemoval: (scope) => startScopeRemoval(driver, scope, { count: true }),
  };
}
