import { keyOf, type ExportScope, type Row, type TableName } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import { REGISTRY, registryEntry, type EngineTable } from './registry';
import { toFileRow } from './row-codec';
import { createRowLookup, type LocalRow, type RowLookup } from './row-lookup';
import { startScopeRemoval, type ScopeRemoval } from './scope-removal';

/**
 * What an import would write, without writing (issue 16: the preview used to run the whole apply in one
 * transaction and roll it back, holding the worker for seconds). The import's own code runs unchanged
 * (import-apply.ts); only its four touches of the database go here instead:
 *
 *   lookup ── the database's rows, minus those the import removed or rewrote, plus those it wrote (this overlay)
 *   insert / update ── into the overlay, with the rowid SQLite would give (max + 1, or the kept id)
 *   startRemoval ── replace's removal, a page a step: counted, and hidden from later lookups
 *
 * Nothing is written to the database, so the preview can stop between any two steps and let other calls run;
 * import-preview.test.ts checks its counts equal a real apply's on several files and databases.
 */
export interface ImportTarget {
  lookup: RowLookup;
  insert(e: EngineTable, row: Row, keepId: boolean): number;
  update(e: EngineTable, local: LocalRow, row: Row): void;
  /** Replace's removal of the scope's rows, in bounded steps (scope-removal.ts). */
  startRemoval(scope: ExportScope): ScopeRemoval;
}

interface Overlay {
  /** Rows the import wrote (or rewrote), by identity: the rowid, or the key of a WITHOUT ROWID row. */
  rows: Map<string, LocalRow>;
  /** Identities of database rows the import removed or rewrote: the database's version is no longer there. */
  gone: Set<string>;
  /** Every database row is gone (replace of everything). */
  allGone: boolean;
  /** Values of `column` whose database rows are gone (derived rows cleared by a parent's update). */
  goneBy: { column: string; values: Set<unknown> } | null;
  /** columns → values → identities (a row rewritten later is re-checked when read). */
  indexes: Map<string, Map<string, Set<string>>>;
  /** The highest rowid the database still holds (read once, on the first insert that needs a new one). */
  dbMax: number | null;
  maxRowid: number;
}

export function createDryRunTarget(driver: SqlDriver): ImportTarget {
  const db = createRowLookup(driver);
  const overlays = new Map<TableName, Overlay>();
  const overlay = (e: EngineTable): Overlay => {
    let o = overlays.get(e.spec.name);
    if (!o) {
      o = { rows: new Map(), gone: new Set(), allGone: false, goneBy: null, indexes: new Map(), dbMax: null, maxRowid: 0 };
      overlays.set(e.spec.name, o);
    }
    return o;
  };
  const identity = (e: EngineTable, l: LocalRow): string => (e.spec.withoutRowid ? keyOf(e.spec, l.row) : String(l.rowid));
  const visible = (e: EngineTable, o: Overlay, l: LocalRow): boolean =>
    !o.gone.has(identity(e, l)) && !(o.goneBy && o.goneBy.values.has(l.row[o.goneBy.column]));

  function index(e: EngineTable, o: Overlay, columns: readonly string[]): Map<string, Set<string>> {
    const name = columns.join('\u0000');
    let ix = o.indexes.get(name);
    if (!ix) {
      ix = new Map();
      for (const [id, l] of o.rows) addTo(ix, keyOf(e.spec, l.row, columns), id);
      o.indexes.set(name, ix);
    }
    return ix;
  }
  function addTo(ix: Map<string, Set<string>>, k: string, id: string): void {
    const ids = ix.get(k);
    if (ids) ids.add(id);
    else ix.set(k, new Set([id]));
  }
  function put(e: EngineTable, o: Overlay, l: LocalRow): void {
    const id = identity(e, l);
    o.rows.set(id, l);
    for (const [name, ix] of o.indexes) addTo(ix, keyOf(e.spec, l.row, name.split('\u0000')), id);
    if (l.rowid > o.maxRowid) o.maxRowid = l.rowid;
  }
  /** The overlay's rows with these values in `columns` (as SQL's `IS` compares them), by rowid. */
  function written(e: EngineTable, columns: readonly string[], values: Row): LocalRow[] {
    const o = overlays.get(e.spec.name);
    if (!o) return [];
    const want = keyOf(e.spec, values, columns);
    const out: LocalRow[] = [];
    for (const id of index(e, o, columns).get(want) ?? []) {
      const l = o.rows.get(id);
      if (l && keyOf(e.spec, l.row, columns) === want) out.push(l);
    }
    return out;
  }
  /** The database's rows the import has not removed or rewritten. */
  function stored(e: EngineTable, find: (limit: number) => LocalRow[], limit: number): LocalRow[] {
    const o = overlays.get(e.spec.name);
    if (o?.allGone) return [];
    const first = find(limit);
    if (!o || first.every((l) => visible(e, o, l))) return first;
    // Some of the first few are gone: those after them must be looked at too.
    return find(-1)
      .filter((l) => visible(e, o, l))
      .slice(0, limit);
  }

  const lookup: RowLookup = {
    byKey(e, values) {
      return written(e, e.spec.key, values)[0] ?? stored(e, (limit) => db.byColumns(e, e.spec.key, values, undefined, limit), 1)[0];
    },
    byColumns(e, columns, values, extra) {
      // The only extra condition is a duplicate rule's `where`, whose JS twin is its `applies`.
      if (extra !== undefined && extra !== e.duplicate?.where) throw new Error(`dry run: no JS form of the condition on ${e.spec.name}`);
      const applies = extra === undefined ? () => true : (e.duplicate?.applies ?? (() => true));
      const mine = written(e, columns, values).filter((l) => applies(l.row));
      const theirs = stored(e, (limit) => db.byColumns(e, columns, values, extra, limit), 50);
      return [...theirs, ...mine].sort((a, b) => a.rowid - b.rowid).slice(0, 50);
    },
  };

  function nextRowid(e: EngineTable, o: Overlay): number {
    if (o.dbMax === null) {
      o.dbMax = 0;
      if (!o.allGone) {
        // The highest rowid still there: the removal may have taken the last rows.
        let below = Number.MAX_SAFE_INTEGER;
        for (let page: { r: number }[] = []; o.dbMax === 0; ) {
          page = driver.all<{ r: number }>(`SELECT rowid AS r FROM ${e.spec.name} WHERE rowid < ? ORDER BY rowid DESC LIMIT 500`, [below]);
          if (page.length === 0) break;
          o.dbMax = page.find((x) => !o.gone.has(String(x.r)))?.r ?? 0;
          below = (page.at(-1) as { r: number }).r;
        }
      }
    }
    return Math.max(o.dbMax, o.maxRowid) + 1;
  }

  return {
    lookup,
    insert(e, row, keepId) {
      const o = overlay(e);
      const { spec } = e;
      const rowid = spec.withoutRowid ? -1 : keepId && spec.surrogate ? Number(row[spec.surrogate]) : nextRowid(e, o);
      const stored = { ...row };
      if (spec.surrogate && !keepId) stored[spec.surrogate] = rowid;
      put(e, o, { rowid, row: stored });
      return rowid;
    },
    update(e, local, row) {
      const o = overlay(e);
      const { spec } = e;
      const cols = Object.keys(spec.columns).filter((c) => c !== spec.surrogate && !spec.key.includes(c));
      if (cols.length === 0) return;
      const next = { ...local.row };
      for (const c of cols) next[c] = row[c];
      o.gone.add(identity(e, local));
      put(e, o, { rowid: local.rowid, row: next });
      if (e.clears && !spec.withoutRowid) {
        const child = overlay(registryEntry(e.clears.table));
        child.goneBy ??= { column: e.clears.column, values: new Set() };
        child.goneBy.values.add(local.rowid);
      }
    },
    startRemoval(scope) {
      if (scope.kind !== 'all')
        return startScopeRemoval(driver, scope, {
          visit(e, rows) {
            // Only the identities: a rowid, or the key of a WITHOUT ROWID row.
            const o = overlay(e);
            for (const r of rows) o.gone.add(e.spec.withoutRowid ? keyOf(e.spec, toFileRow(e.spec, r)) : String(r.__rowid));
          },
        });
      // Everything goes: counted a page a step, and every table hidden from later lookups (the rows come after).
      for (const e of REGISTRY) overlay(e).allGone = true;
      return startScopeRemoval(driver, scope, { countOnly: true });
    },
  };
}
