import type { Row } from '../../domain/backup';
import { indexText } from '../../domain/text/segment';
import type { SqlDriver } from '../store/driver';
import { valueStrings } from '../store/memory-rows';

/**
 * The full-text rows of the three indexed tables, rebuilt from a row's content. FTS tables are
 * contentless and derived, so they are never exported; an import writes them here with the same
 * columns the repositories write (message-repo, summary-repo, memory-repo). A test compares the index
 * terms of repo-written and import-written data (fts5vocab), so the two cannot drift apart unnoticed.
 */
export interface FtsIndex {
  /** The FTS5 table; its rowid is the indexed table's rowid. */
  readonly table: string;
  readonly columns: readonly string[];
  values(row: Row): string[];
}

export const FTS_INDEXES = {
  messages: {
    table: 'messages_fts',
    columns: ['body', 'extra'],
    values: (row: Row) => [indexText(row.content as string), ''],
  },
  summaries: {
    table: 'summaries_fts',
    columns: ['body'],
    values: (row: Row) => [
      indexText([row.summary as string, ...(row.key_symbols as string[]), ...(row.key_decisions as string[])].join('\n')),
    ],
  },
  memories: {
    table: 'memories_fts',
    columns: ['body', 'key'],
    values: (row: Row) => [
      indexText([row.content as string, ...(row.tags as string[]), ...valueStrings(row.value)].join('\n')),
      indexText((row.key as string).replace(/[._]+/gu, ' ')),
    ],
  },
} as const satisfies Record<string, FtsIndex>;

/** (Re)writes the index row of `rowid`; `replace` removes the old one first (contentless delete). */
export function writeFtsRow(driver: SqlDriver, fts: FtsIndex, opts: { rowid: number; row: Row; replace: boolean }): void {
  if (opts.replace) driver.run(`DELETE FROM ${fts.table} WHERE rowid = ?`, [opts.rowid]);
  const marks = fts.columns.map(() => '?').join(', ');
  driver.run(`INSERT INTO ${fts.table} (rowid, ${fts.columns.join(', ')}) VALUES (?, ${marks})`, [opts.rowid, ...fts.values(opts.row)]);
}
