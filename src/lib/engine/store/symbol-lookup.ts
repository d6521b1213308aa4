import type { SqlDriver } from './driver';
import { symbolsColumn } from './symbol-tokens';

const PAGE = 1000;

/**
 * Rebuilds symbols_fts (symbol → turn, migration 0009) from symbol_index, a page of turns at a time: after a
 * re-index, a backup import or the migration that created it. Runs inside the caller's write transaction.
 */
export function rebuildSymbolLookup(driver: SqlDriver): number {
  driver.run("INSERT INTO symbols_fts(symbols_fts) VALUES ('delete-all')");
  let after = -1;
  let turns = 0;
  for (;;) {
    const rows = driver.all<{ turn_id: number; symbols: string }>(
      `SELECT turn_id, json_group_array(symbol) AS symbols FROM symbol_index
       WHERE turn_id IN (SELECT DISTINCT turn_id FROM symbol_index WHERE turn_id > ? ORDER BY turn_id LIMIT ?)
       GROUP BY turn_id ORDER BY turn_id`,
      [after, PAGE],
    );
    if (rows.length === 0) return turns;
    for (const r of rows) driver.run('INSERT INTO symbols_fts (rowid, symbols) VALUES (?, ?)', [r.turn_id, symbolsColumn(JSON.parse(r.symbols) as string[])]);
    turns += rows.length;
    after = rows[rows.length - 1]?.turn_id ?? after;
  }
}

/** Rewrites the symbols_fts rows of these turns from their symbol_index entries (an import added or changed them). */
export function refreshSymbolLookup(driver: SqlDriver, turnIds: Iterable<number>): void {
  const ids = [...new Set(turnIds)];
  if (ids.length === 0) return;
  for (const id of ids) driver.run('DELETE FROM symbols_fts WHERE rowid = ?', [id]);
  const rows = driver.all<{ turn_id: number; symbols: string }>(
    `SELECT turn_id, json_group_array(symbol) AS symbols FROM symbol_index
     WHERE turn_id IN (SELECT value FROM json_each(?)) GROUP BY turn_id`,
    [JSON.stringify(ids)],
  );
  for (const r of rows) driver.run('INSERT INTO symbols_fts (rowid, symbols) VALUES (?, ?)', [r.turn_id, symbolsColumn(JSON.parse(r.symbols) as string[])]);
}
