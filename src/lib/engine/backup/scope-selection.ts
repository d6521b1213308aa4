import type { ExportScope, TableName } from '../../domain/backup';

/**
 * The rows an export's scope owns and the rows they point at (the closure), captured: for every rowid table a
 * temporary table of the selected rowids, built in steps by scope-slices.ts. (An import that replaces a scope
 * removes its rows a page a step instead, deciding per row: scope-removal.ts.)
 *
 * WITHOUT ROWID tables are children only and follow their parents' captured rows.
 */
export interface ScopeSelection {
  readonly scope: ExportScope;
  /** SQL condition selecting the table's rows in scope (unaliased columns, `rowid`). */
  filter(table: TableName): string;
  /** The temp table of captured rowids (`k`), for rowid tables. */
  keys(table: TableName): string | null;
  count(table: TableName): number;
  /** The named parameters `sql` (built from `filter`) needs. */
  params(sql: string): { scope: string } | undefined;
  drop(): void;
}
