import { segmenterVersion } from '../../domain/text';
import type { Logger } from '../../domain/log';
import { toSummary, type SummaryRow } from './conversation-rows';
import type { SqlDriver } from './driver';
import type { SliceTiming } from './slices';
import { EPISODE_FTS_INSERT, MEMORY_FTS_INSERT, MESSAGE_FTS_INSERT, episodeFtsColumns, memoryFtsColumns, messageFtsColumns, summaryFtsColumns } from './fts-columns';
import { keptText } from '../../domain/episodes/summary';
import { toMemory, type MemoryRow } from './memory-rows';

/**
 * Rebuilds every full-text row from the rows it indexes (002 `memory_reindex`), with the same column
 * functions the repositories write (fts-columns.ts), so a rebuilt index equals one written row by row.
 * It is needed when the segmenter changes (ARCHITECTURE §5: "store its version; re-index when it
 * changes"): old rows segmented one way and new queries segmented another would miss each other.
 *
 * Invariant: runs inside a write transaction (the engine's, or ensureSegmenterVersion's), so readers
 * never see a half-empty index.
 */
export interface ReindexReport {
  /** Rows re-indexed per table. */
  messages: number;
  summaries: number;
  memories: number;
  episodes: number;
  segmenterVersion: string;
  ms: number;
  /** maintenance.reindex's slices: the slowest few, what each was made of (bench:speed lines them up with its waits). */
  slowSlices?: SliceTiming[];
}

export const SEGMENTER_META_KEY = 'segmenter_version';
const PAGE = 1000;

/** Pages through a table by rowid, so a large table is never held in memory whole. */
function eachPage<R>({ driver, sql, rowid, visit }: { driver: SqlDriver; sql: string; rowid: (r: R) => number; visit: (rows: R[]) => void }): number {
  let after = -1;
  let n = 0;
  for (;;) {
    const rows = driver.all<R>(sql, [after, PAGE]);
    if (rows.length === 0) return n;
    visit(rows);
    n += rows.length;
    after = rowid(rows[rows.length - 1] as R);
  }
}

export function reindexFts(driver: SqlDriver): ReindexReport {
  const t0 = performance.now();
  // Contentless tables (content='') accept 'delete-all' to drop every row at once.
  for (const t of ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts']) driver.run(`INSERT INTO ${t}(${t}) VALUES ('delete-all')`);
  const messages = eachPage<{ id: number; content: string; symbols: string }>({
    driver,
    sql: 'SELECT id, content, symbols FROM messages WHERE id > ? ORDER BY id LIMIT ?',
    rowid: (r) => r.id,
    visit: (rows) => {
      for (const r of rows) driver.run(MESSAGE_FTS_INSERT, [r.id, ...messageFtsColumns({ content: r.content, symbols: JSON.parse(r.symbols) as string[] })]);
    },
  });
  const summaries = eachPage<SummaryRow>({
    driver,
    sql: 'SELECT * FROM summaries WHERE id > ? ORDER BY id LIMIT ?',
    rowid: (r) => r.id,
    visit: (rows) => {
      for (const r of rows) driver.run('INSERT INTO summaries_fts (rowid, body) VALUES (?, ?)', [r.id, ...summaryFtsColumns(toSummary(r))]);
    },
  });
  const memories = eachPage<MemoryRow>({
    driver,
    sql: 'SELECT * FROM memories WHERE rid > ? ORDER BY rid LIMIT ?',
    rowid: (r) => r.rid,
    visit: (rows) => {
      for (const r of rows) driver.run(MEMORY_FTS_INSERT, [r.rid, ...memoryFtsColumns(toMemory(r))]);
    },
  });
  const episodes = eachPage<{ rid: number; input_summary: string; candidates: string; selected_index: number; final_text: string | null; summary: string | null }>({
    driver,
    sql: 'SELECT rid, input_summary, candidates, selected_index, final_text, summary FROM episodes WHERE rid > ? ORDER BY rid LIMIT ?',
    rowid: (r) => r.rid,
    visit: (rows) => {
      for (const r of rows) {
        const kept = keptText({ candidates: JSON.parse(r.candidates) as string[], selectedIndex: r.selected_index, finalText: r.final_text, summary: r.summary });
        driver.run(EPISODE_FTS_INSERT, [r.rid, ...episodeFtsColumns({ inputSummary: r.input_summary, keptText: kept })]);
      }
    },
  });
  writeSegmenterVersion(driver);
  return { messages, summaries, memories, episodes, segmenterVersion: segmenterVersion(), ms: performance.now() - t0 };
}

export function storedSegmenterVersion(driver: SqlDriver): string | null {
  return driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [SEGMENTER_META_KEY])?.value ?? null;
}

function writeSegmenterVersion(driver: SqlDriver): void {
  driver.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
    SEGMENTER_META_KEY,
    segmenterVersion(),
  ]);
}

/**
 * At engine start: when the index was built by another segmenter (another ICU, changed rules), rebuild
 * it. A database without a recorded version is rebuilt too unless it has nothing indexed: it cannot say
 * which segmenter wrote its rows. Returns the report when it re-indexed, else null.
 */
export function ensureSegmenterVersion(deps: { driver: SqlDriver; log: Logger }): ReindexReport | null {
  const { driver, log } = deps;
  if (storedSegmenterVersion(driver) === segmenterVersion()) return null;
  return driver.transaction(() => {
    // Re-read under the write lock: another process (Node host) may have just done it.
    const stored = storedSegmenterVersion(driver);
    if (stored === segmenterVersion()) return null;
    const indexed = driver.get<{ n: number }>(
      'SELECT (SELECT COUNT(*) FROM messages) + (SELECT COUNT(*) FROM summaries) + (SELECT COUNT(*) FROM memories) AS n',
    )?.n;
    if (stored === null && !indexed) {
      writeSegmenterVersion(driver);
      return null;
    }
    const report = reindexFts(driver);
    log.info('fts.reindexed', {
      from: stored,
      to: report.segmenterVersion,
      messages: report.messages,
      summaries: report.summaries,
      memories: report.memories,
      ms: Math.round(report.ms),
    });
    return report;
  });
}
