import type { ExportScope, TableName } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import { REGISTRY, registryEntry, type EngineTable, type Sel } from './registry';
import type { ScopeSelection } from './scope-selection';

/**
 * An export's scope, sized and then captured in bounded steps (issue 16: at a million turns `backup.exportBegin`
 * built its whole selection in one call and held the worker 9 s, only to refuse the file as too large).
 *
 *   size (reads rows, writes nothing) ─▶ over the limit? refuse ─▶ own rows ─▶ closure ─▶ counts
 *
 * Every step reads at most `pageRows` rows of one table in key order (rowid, or the primary key of WITHOUT
 * ROWID tables), so the caller can run steps until its time budget is spent and let other calls run between.
 * The rows captured are those registry.ts's ownership predicates select, parents first, then the closure children
 * first — evaluated per row (a correlated EXISTS on the parent's captured rowids) instead of against the whole
 * parent selection, which no step could afford.
 * Rows added after the export began (a rowid above the table's largest at the start) are not in it.
 */
export interface ScopeSteps {
  /** One bounded step; false when the phase is over. */
  step(): boolean;
  /** Rows the steps have read so far (tests count work per slice with it). */
  readonly examined: number;
}

type Page = { after: unknown[] | null };

const sizeExpr = (e: EngineTable) =>
  Object.keys(e.spec.columns)
    .map((c) => `COALESCE(LENGTH(CAST(${c} AS BLOB)), 4)`)
    .join(' + ');
/** A row's JSON keys and punctuation (escapes aside): what a row costs beyond its values. */
const perRowBytes = (e: EngineTable) => Object.keys(e.spec.columns).reduce((n, c) => n + c.length + 6, 2);

export function ownPredicate(table: TableName, scope: ExportScope, sel: Sel): string {
  const predicate = registryEntry(table).own[scope.kind];
  return predicate ? `(${predicate(sel)})` : scope.kind === 'all' ? '1' : '0';
}

const paramsFor = (scope: ExportScope) => (sql: string) => (sql.includes('$scope') && scope.kind !== 'all' ? { scope: scope.id } : {});

/** A page of a table in key order after `page.after` (at most $limit rows, `columns` computed on each): its SQL. */
function keyPageSql(e: EngineTable, page: Page, columns: string, cap: number | null): { sql: string; bind: Record<string, unknown> } {
  const { spec } = e;
  if (!spec.withoutRowid)
    return {
      sql: `SELECT rowid AS __k, ${columns} FROM ${spec.name} WHERE rowid > $after AND rowid <= $cap ORDER BY rowid LIMIT $limit`,
      bind: { after: (page.after?.[0] as number) ?? -1, cap: cap ?? -1 },
    };
  const pk = spec.key.join(', ');
  const marks = spec.key.map((_, i) => `$a${i}`).join(', ');
  const keys = spec.key.map((k) => `${k} AS __k_${k}`).join(', ');
  const bind: Record<string, unknown> = {};
  page.after?.forEach((v, i) => (bind[`a${i}`] = v));
  return { sql: `SELECT ${keys}, ${columns} FROM ${spec.name}${page.after ? ` WHERE (${pk}) > (${marks})` : ''} ORDER BY ${pk} LIMIT $limit`, bind };
}

const lastKey = (e: EngineTable, row: Record<string, unknown>): unknown[] => (e.spec.withoutRowid ? e.spec.key.map((k) => row[`__k_${k}`]) : [row.__k]);

/** The next page of a table in key order: at most `limit` rows, with `columns` computed on each. */
function readKeyPage(
  driver: SqlDriver,
  e: EngineTable,
  page: Page,
  columns: string,
  limit: number,
  cap: number | null,
  params: (sql: string) => Record<string, unknown>,
): Record<string, unknown>[] {
  const { sql, bind } = keyPageSql(e, page, columns, cap);
  const rows = driver.all<Record<string, unknown>>(sql, { ...params(sql), ...bind, limit } as never);
  const last = rows.at(-1);
  if (last) page.after = lastKey(e, last);
  return rows;
}

/**
 * The next page's row count and the total of `value` over it, summed by SQLite (one row back, not a page of them),
 * and where the page ended: the key of its last row (its largest, or the row `limit` rows on when it is full).
 */
function sumKeyPage(
  driver: SqlDriver,
  e: EngineTable,
  page: Page,
  value: string,
  limit: number,
  cap: number | null,
  params: (sql: string) => Record<string, unknown>,
): { rows: number; total: number } {
  const { sql: inner, bind } = keyPageSql(e, page, `${value} AS __v`, cap);
  const sql = `SELECT COUNT(*) AS n, TOTAL(__v) AS total${e.spec.withoutRowid ? '' : ', MAX(__k) AS __k'} FROM (${inner})`;
  const got = driver.get<Record<string, unknown>>(sql, { ...params(sql), ...bind, limit } as never);
  const rows = Number(got?.n ?? 0);
  if (rows === limit) {
    if (!e.spec.withoutRowid) page.after = [got?.__k];
    else {
      const { sql: keys, bind: kb } = keyPageSql(e, page, '1', cap);
      const last = driver.get<Record<string, unknown>>(`${keys.replace(/LIMIT \$limit$/, 'LIMIT 1 OFFSET $skip')}`, { ...kb, skip: limit - 1 } as never);
      if (last) page.after = lastKey(e, last);
    }
  }
  return { rows, total: Number(got?.total ?? 0) };
}

/** The largest rowid of every rowid table now: the rows an export that begins now may hold. */
export function rowidCaps(driver: SqlDriver): Map<TableName, number> {
  const caps = new Map<TableName, number>();
  for (const { spec } of REGISTRY)
    if (!spec.withoutRowid) caps.set(spec.name, driver.get<{ m: number | null }>(`SELECT MAX(rowid) AS m FROM ${spec.name}`)?.m ?? 0);
  return caps;
}

/** Runs phases one after another as one step function: a step is one step of one phase. */
function sequence(phases: (() => boolean)[]): () => boolean {
  let i = 0;
  return () => {
    if (i >= phases.length) return false;
    if (!(phases[i] as () => boolean)()) i++;
    return i < phases.length;
  };
}

/** A table no row of which is in scope: nothing to read. */
const none = (predicate: string) => predicate === '0';

/**
 * The size of the scope's own rows in the file (its values' bytes plus each row's keys and punctuation), read
 * page by page and written nowhere: an export over the limit is refused before anything is selected.
 * Correlated to the row (EXISTS on the parent's own predicate), so a page costs what its rows cost.
 */
export function sizeScope(
  driver: SqlDriver,
  scope: ExportScope,
  caps: Map<TableName, number>,
  opts: { pageRows: number; onPage: (bytes: number) => void },
): ScopeSteps {
  let alias = 0;
  const inline = (table: TableName, outer: string): string =>
    ownPredicate(table, scope, (column, parent, target) => {
      const p = `p${++alias}`;
      return `EXISTS (SELECT 1 FROM ${parent} ${p} WHERE ${p}.${target} = ${outer}.${column} AND ${inline(parent, p)})`;
    });
  const params = paramsFor(scope);
  let examined = 0;
  const phases = REGISTRY.map((e) => {
    const page: Page = { after: null };
    const own = inline(e.spec.name, e.spec.name);
    if (none(own)) return () => false;
    const value = `CASE WHEN ${own} THEN ${sizeExpr(e)} + ${perRowBytes(e)} ELSE 0 END`;
    return () => {
      const { rows, total } = sumKeyPage(driver, e, page, value, opts.pageRows, caps.get(e.spec.name) ?? null, params);
      examined += rows;
      opts.onPage(total);
      return rows === opts.pageRows;
    };
  });
  return {
    step: sequence(phases),
    get examined() {
      return examined;
    },
  };
}

let serial = 0;

/**
 * The scope's rows captured into temp tables of rowids, step by step: own rows parents
 * first, the closure children first, then the count of every table. `selection` is usable once `step` is done.
 */
export function selectScopeInSteps(
  driver: SqlDriver,
  scope: ExportScope,
  caps: Map<TableName, number>,
  opts: { pageRows: number },
): ScopeSteps & { selection: ScopeSelection } {
  const n = ++serial;
  const temp = (t: TableName) => `temp.bx${n}_${t}`;
  const created: TableName[] = [];
  const params = paramsFor(scope);
  const counts = new Map<TableName, number>();
  let examined = 0;

  // A row is in scope when its parent's row is captured: one index lookup per row, whatever the parent's size.
  const correlated = (outer: string): Sel => (column, parent, target) =>
    `EXISTS (SELECT 1 FROM ${parent} p WHERE p.${target} = ${outer}.${column} AND p.rowid IN (SELECT k FROM ${temp(parent)}))`;
  const filter = (table: TableName): string =>
    registryEntry(table).spec.withoutRowid ? ownPredicate(table, scope, correlated(table)) : `rowid IN (SELECT k FROM ${temp(table)})`;

  /** The key after `page` in the temp table `pageRows` keys on (null: the rest). */
  const tempUpTo = (t: string, after: number): number | null =>
    driver.get<{ k: number }>(`SELECT k FROM ${t} WHERE k > ? ORDER BY k LIMIT 1 OFFSET ${opts.pageRows - 1}`, [after])?.k ?? null;

  /**
   * Steps through the captured keys of a temp table `pageRows` at a time: `each` gets the range's parameters and
   * the SQL that bounds it above (' AND k <= $upTo', or '' for the rest of the table).
   */
  const tempSteps = (t: string, each: (range: { after: number; upTo?: number }, upTo: string) => void) => {
    let after = -1;
    return () => {
      const upTo = tempUpTo(t, after);
      each(upTo === null ? { after } : { after, upTo }, upTo === null ? '' : ' AND k <= $upTo');
      examined += opts.pageRows;
      if (upTo === null) return false;
      after = upTo;
      return true;
    };
  };

  const phases: (() => boolean)[] = [];
  // 1. Own rows, parents first.
  for (const e of REGISTRY) {
    if (e.spec.withoutRowid) continue;
    const name = e.spec.name;
    let after = -1;
    let started = false;
    const own = ownPredicate(name, scope, correlated(name));
    phases.push(() => {
      if (!started) {
        driver.exec(`CREATE TEMP TABLE bx${n}_${name} (k INTEGER PRIMARY KEY)`);
        created.push(name);
        started = true;
        if (none(own)) return false;
      }
      const cap = caps.get(name) ?? 0;
      const upTo = driver.get<{ k: number }>(
        `SELECT rowid AS k FROM ${name} WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT 1 OFFSET ${opts.pageRows - 1}`,
        [after, cap],
      )?.k;
      const end = upTo ?? cap;
      const sql = `INSERT INTO ${temp(name)} (k) SELECT rowid FROM ${name} WHERE rowid > $after AND rowid <= $end AND ${own}`;
      driver.run(sql, { ...params(sql), after, end } as never);
      examined += opts.pageRows;
      after = end;
      return upTo !== undefined && end < cap;
    });
  }
  // 2. Closure, children first: the rows the captured rows point at.
  for (const e of [...REGISTRY].reverse()) {
    for (const ref of e.spec.refs) {
      const parent = ref.table as TableName;
      if (!e.spec.withoutRowid) {
        phases.push(
          tempSteps(temp(e.spec.name), (range, upTo) =>
            driver.run(
              `INSERT OR IGNORE INTO ${temp(parent)} (k) SELECT p.rowid FROM ${parent} p WHERE p.${ref.target} IN
                (SELECT c.${ref.column} FROM ${e.spec.name} c WHERE c.rowid IN (SELECT k FROM ${temp(e.spec.name)} WHERE k > $after${upTo}))`,
              range as never,
            ),
          ),
        );
      } else {
        const page: Page = { after: null };
        const own = filter(e.spec.name);
        if (none(own)) continue;
        phases.push(() => {
          const rows = readKeyPage(driver, e, page, `${ref.column} AS __v, (${own}) AS __o`, opts.pageRows, null, params);
          examined += rows.length;
          const values = rows.filter((r) => r.__o && r.__v !== null).map((r) => r.__v);
          if (values.length)
            driver.run(`INSERT OR IGNORE INTO ${temp(parent)} (k) SELECT rowid FROM ${parent} WHERE ${ref.target} IN (SELECT value FROM json_each(?))`, [
              JSON.stringify(values),
            ]);
          return rows.length === opts.pageRows;
        });
      }
    }
  }
  // 3. Counts: the captured rows that still exist.
  for (const e of REGISTRY) {
    const name = e.spec.name;
    counts.set(name, 0);
    if (!e.spec.withoutRowid) {
      phases.push(
        tempSteps(temp(name), (range, upTo) => {
          const got = driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${temp(name)} b JOIN ${name} t ON t.rowid = b.k WHERE b.k > $after${upTo.replace('k', 'b.k')}`, range as never);
          counts.set(name, (counts.get(name) ?? 0) + (got?.n ?? 0));
        }),
      );
    } else {
      const page: Page = { after: null };
      const own = filter(name);
      if (none(own)) continue;
      phases.push(() => {
        const rows = readKeyPage(driver, e, page, `(${own}) AS __o`, opts.pageRows, null, params);
        examined += rows.length;
        counts.set(name, (counts.get(name) ?? 0) + rows.filter((r) => r.__o).length);
        return rows.length === opts.pageRows;
      });
    }
  }

  const step = sequence(phases);
  return {
    step,
    get examined() {
      return examined;
    },
    selection: {
      scope,
      filter,
      params: (sql) => (sql.includes('$scope') && scope.kind !== 'all' ? { scope: scope.id } : undefined),
      keys: (table) => (registryEntry(table).spec.withoutRowid ? null : temp(table)),
      count: (table) => counts.get(table) ?? 0,
      drop() {
        for (const t of created.splice(0)) driver.exec(`DROP TABLE IF EXISTS ${temp(t)}`);
      },
    },
  };
}
