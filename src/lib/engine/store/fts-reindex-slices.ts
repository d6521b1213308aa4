import { SEGMENTER_VERSION } from '../../domain/text';
import { toSummary, type SummaryRow } from './conversation-rows';
import type { SqlDriver } from './driver';
import { EPISODE_FTS_INSERT, MEMORY_FTS_INSERT, MESSAGE_FTS_INSERT, episodeFtsColumns, memoryFtsColumns, messageFtsColumns, summaryFtsColumns } from './fts-columns';
import { keptText } from '../../domain/episodes/summary';
import { SEGMENTER_META_KEY, type ReindexReport } from './fts-reindex';
import { toMemory, type MemoryRow } from './memory-rows';
import { runInSlices } from './slices';

/**
 * maintenance.reindex (002 memory_reindex) without stalling the page (issue 16): every full-text row is written
 * again, a batch of rows at a time, each row's old entry deleted and its new one inserted in the same transaction
 * — so a reader finds every row, in its old segmentation or its new one, never none. Slices of ~20 ms commit
 * with the worker free in between; where it stands is kept in `meta`, so a reindex cut short goes on from there.
 */
interface Step {
  table: 'messages' | 'summaries' | 'memories' | 'episodes';
  select: string;
  write: (driver: SqlDriver, row: Record<string, unknown>) => void;
  rowid: (row: Record<string, unknown>) => number;
}

/** Rows per step: a step is the unit between two looks at the clock (~1 ms a row on a busy 2-core machine). */
const BATCH = 10;
const JOURNAL = 'fts.reindex_progress';

const STEPS: readonly Step[] = [
  {
    table: 'messages',
    select: 'SELECT id, content, symbols FROM messages WHERE id > ? ORDER BY id LIMIT ?',
    rowid: (r) => r.id as number,
    write: (driver, r) => {
      driver.run('DELETE FROM messages_fts WHERE rowid = ?', [r.id as number]);
      driver.run(MESSAGE_FTS_INSERT, [r.id as number, ...messageFtsColumns({ content: r.content as string, symbols: JSON.parse(r.symbols as string) as string[] })]);
    },
  },
  {
    table: 'summaries',
    select: 'SELECT * FROM summaries WHERE id > ? ORDER BY id LIMIT ?',
    rowid: (r) => r.id as number,
    write: (driver, r) => {
      driver.run('DELETE FROM summaries_fts WHERE rowid = ?', [r.id as number]);
      driver.run('INSERT INTO summaries_fts (rowid, body) VALUES (?, ?)', [r.id as number, ...summaryFtsColumns(toSummary(r as unknown as SummaryRow))]);
    },
  },
  {
    table: 'memories',
    select: 'SELECT * FROM memories WHERE rid > ? ORDER BY rid LIMIT ?',
    rowid: (r) => r.rid as number,
    write: (driver, r) => {
      driver.run('DELETE FROM memories_fts WHERE rowid = ?', [r.rid as number]);
      driver.run(MEMORY_FTS_INSERT, [r.rid as number, ...memoryFtsColumns(toMemory(r as unknown as MemoryRow))]);
    },
  },
  {
    table: 'episodes',
    select: 'SELECT rid, input_summary, candidates, selected_index, final_text, summary FROM episodes WHERE rid > ? ORDER BY rid LIMIT ?',
    rowid: (r) => r.rid as number,
    write: (driver, r) => {
      const kept = keptText({
        candidates: JSON.parse(r.candidates as string) as string[],
        selectedIndex: r.selected_index as number,
        finalText: r.final_text as string | null,
        summary: r.summary as string | null,
      });
      driver.run('DELETE FROM episodes_fts WHERE rowid = ?', [r.rid as number]);
      driver.run(EPISODE_FTS_INSERT, [r.rid as number, ...episodeFtsColumns({ inputSummary: r.input_summary as string, keptText: kept })]);
    },
  },
];

const setMeta = (driver: SqlDriver, key: string, value: string) =>
  driver.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);

export async function reindexInSlices(driver: SqlDriver, opts: { onProgress?: (rows: number) => void } = {}): Promise<ReindexReport> {
  const t0 = performance.now();
  const saved = driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [JOURNAL]);
  let at = saved ? (JSON.parse(saved.value) as { step: number; after: number }) : { step: 0, after: -1 };
  const counts = { messages: 0, summaries: 0, memories: 0, episodes: 0 };
  await runInSlices({
    driver,
    step: () => {
      const s = STEPS[at.step];
      if (!s) {
        setMeta(driver, SEGMENTER_META_KEY, SEGMENTER_VERSION);
        driver.run('DELETE FROM meta WHERE key = ?', [JOURNAL]);
        return false;
      }
      const rows = driver.all<Record<string, unknown>>(s.select, [at.after, BATCH]);
      for (const r of rows) s.write(driver, r);
      counts[s.table] += rows.length;
      const last = rows.at(-1);
      at = rows.length < BATCH || !last ? { step: at.step + 1, after: -1 } : { step: at.step, after: s.rowid(last) };
      setMeta(driver, JOURNAL, JSON.stringify(at));
      return true;
    },
    onSlice: () => opts.onProgress?.(counts.messages + counts.summaries + counts.memories + counts.episodes),
  });
  return { ...counts, segmenterVersion: SEGMENTER_VERSION, ms: performance.now() - t0 };
}
