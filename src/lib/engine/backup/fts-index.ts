import type { Row } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import { EPISODE_FTS_COLUMNS, MEMORY_FTS_COLUMNS, episodeFtsColumns, memoryFtsColumns, messageFtsColumns, summaryFtsColumns } from '../store/fts-columns';
import { keptText } from '../../domain/episodes/summary';

/**
 * The full-text rows of the indexed tables, rebuilt from a row's content. FTS tables are
 * contentless and derived, so they are never exported; an import writes them here with the same
 * columns the repositories write — the same functions (store/fts-columns.ts) produce them.
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
    columns: ['body', 'extra', 'symbols'],
    values: (row: Row) => messageFtsColumns({ content: row.content as string, symbols: row.symbols as string[] }),
  },
  summaries: {
    table: 'summaries_fts',
    columns: ['body'],
    values: (row: Row) =>
      summaryFtsColumns({ summary: row.summary as string, keySymbols: row.key_symbols as string[], keyDecisions: row.key_decisions as string[] }),
  },
  memories: {
    table: 'memories_fts',
    columns: MEMORY_FTS_COLUMNS,
    values: (row: Row) =>
      memoryFtsColumns({ content: row.content as string, tags: row.tags as string[], value: row.value, key: row.key as string }),
  },
  episodes: {
    table: 'episodes_fts',
    columns: EPISODE_FTS_COLUMNS,
    values: (row: Row) =>
      episodeFtsColumns({
        inputSummary: row.input_summary as string,
        keptText: keptText({ candidates: row.candidates as string[], selectedIndex: row.selected_index as number, finalText: row.final_text as string | null, summary: row.summary as string | null }),
      }),
  },
} as const satisfies Record<string, FtsIndex>;

/** (Re)writes the index row of `rowid`; `replace` removes the old one first (contentless delete). */
export function writeFtsRow(driver: SqlDriver, fts: FtsIndex, opts: { rowid: number; row: Row; replace: boolean }): void {
  if (opts.replace) driver.run(`DELETE FROM ${fts.table} WHERE rowid = ?`, [opts.rowid]);
  const marks = fts.columns.map(() => '?').join(', ');
  driver.run(`INSERT INTO ${fts.table} (rowid, ${fts.columns.join(', ')}) VALUES (?, ${marks})`, [opts.rowid, ...fts.values(opts.row)]);
}
