import { segmenterVersion } from '../../domain/text';
import { toSummary, type SummaryRow } from './conversation-rows';
import type { SqlDriver } from './driver';
import { EPISODE_FTS_INSERT, MEMORY_FTS_INSERT, MESSAGE_FTS_INSERT, episodeFtsColumns, memoryFtsColumns, messageFtsColumns, summaryFtsColumns } from './fts-columns';
import { keptText } from '../../domain/episodes/summary';
import { SEGMENTER_META_KEY, type ReindexReport } from './fts-reindex';
import { toMemory, type MemoryRow } from './memory-rows';
import { createMergePacer, type FtsTable } from './fts-merge';
import { runInSlices, slowestSlices, type SliceTiming } from './slices';
import { checkpointBetweenSlices } from './checkpoint-slices';

/**
 * maintenance.reindex (002 memory_reindex) without stalling the page (issue 16): every full-text row is written
 * again, a batch of rows at a time, each row's old entry deleted and its new one inserted in the same transaction
 * — so a reader finds every row, in its old segmentation or its new one, never none. Slices of ~20 ms commit
 * with the worker free in between; where it stands is kept in `meta`, so a reindex cut short goes on from there.
 *
 * Rewriting every row makes FTS5 merge segments at the COMMITs ("automerge"), for seconds at a time on a large
 * store (3,177 ms at a million turns): the pass paces its merging with fts-merge.ts's createMergePacer, as an
 * import does — automerge off while rows are rewritten, a bounded merge (REINDEX_MERGE_PAGES pages) of the index
 * being rewritten every REINDEX_ROWS_PER_MERGE rows, at the end each index merged a bounded piece per step until
 * nothing is left, then automerge back on. The engine sets it back at open if the pass was cut short.
 *
 * A step is one row: what a slice costs past its budget is one row's segmentation (the step's JavaScript, not its
 * SQL, is most of a row's time: bench/speed/reindex-stalls.ts), not a batch's. Its budget covers the COMMIT too.
 * Where the pass stands is written to `meta` once a slice, at its end (runInSlices' endSlice), in the slice's own
 * transaction: a step is the row's SELECT, DELETE and INSERT only (before, every row also wrote the journal — a
 * fourth statement and a JSON string a row, garbage the worker's GC collects between slices).
 *
 *   rows (automerge off, a bounded merge now and then) ─▶ merge each index to the end ─▶ automerge on
 */
interface Step {
  table: 'messages' | 'summaries' | 'memories' | 'episodes';
  select: string;
  write: (driver: SqlDriver, row: Record<string, unknown>) => void;
  rowid: (row: Record<string, unknown>) => number;
}

const JOURNAL = 'fts.reindex_progress';

const STEPS: readonly Step[] = [
  {
    table: 'messages',
    select: 'SELECT id, content, symbols FROM messages WHERE id > ? ORDER BY id LIMIT 1',
    rowid: (r) => r.id as number,
    write: (driver, r) => {
      driver.run('DELETE FROM messages_fts WHERE rowid = ?', [r.id as number]);
      driver.run(MESSAGE_FTS_INSERT, [r.id as number, ...messageFtsColumns({ content: r.content as string, symbols: JSON.parse(r.symbols as string) as string[] })]);
    },
  },
  {
    table: 'summaries',
    select: 'SELECT * FROM summaries WHERE id > ? ORDER BY id LIMIT 1',
    rowid: (r) => r.id as number,
    write: (driver, r) => {
      driver.run('DELETE FROM summaries_fts WHERE rowid = ?', [r.id as number]);
      driver.run('INSERT INTO summaries_fts (rowid, body) VALUES (?, ?)', [r.id as number, ...summaryFtsColumns(toSummary(r as unknown as SummaryRow))]);
    },
  },
  {
    table: 'memories',
    select: 'SELECT * FROM memories WHERE rid > ? ORDER BY rid LIMIT 1',
    rowid: (r) => r.rid as number,
    write: (driver, r) => {
      driver.run('DELETE FROM memories_fts WHERE rowid = ?', [r.rid as number]);
      driver.run(MEMORY_FTS_INSERT, [r.rid as number, ...memoryFtsColumns(toMemory(r as unknown as MemoryRow))]);
    },
  },
  {
    table: 'episodes',
    select: 'SELECT rid, input_summary, candidates, selected_index, final_text, summary FROM episodes WHERE rid > ? ORDER BY rid LIMIT 1',
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

/**
 * Pages one of the reindex's bounded merges writes. Compared natively at 100,000 turns (bench/speed/reindex-merge.ts,
 * CPU time, one loaded run each): 4 pages — longest merge 9.0 ms, longest slice 30.2 ms, 25 slices over 20 ms;
 * 8 pages — 15.2, 52.5, 31; 2 pages — 17.6, 66.3, 43 (~15% more slices than 8 pages).
 */
export const REINDEX_MERGE_PAGES = 4;
/**
 * Pages one reindex slice may write (runInSlices' pageBudget, as the lifecycle's clean-up): a COMMIT's cost on OPFS
 * grows with the pages it appends to the WAL.
 */
export const REINDEX_PAGE_BUDGET = 64;
/** One step in this many is a bounded merge (29 rows a merge; before, every fourth step of 10 rows: 30). */
export const REINDEX_ROWS_PER_MERGE = 30;
const FTS: readonly FtsTable[] = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];
const ftsOf = (s: Step): FtsTable => `${s.table}_fts`;

const setMeta = (driver: SqlDriver, key: string, value: string) =>
  driver.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);

export async function reindexInSlices(
  driver: SqlDriver,
  opts: {
    onProgress?: (rows: number) => void;
    budgetMs?: number;
    now?: () => number;
    onSlice?: (ms: number, timing: SliceTiming) => void;
    /** Pages one bounded merge step works through (fts-merge.ts; the benchmark compares sizes). */
    mergePages?: number;
    /** Pages one slice may write (runInSlices' pageBudget; default REINDEX_PAGE_BUDGET, 0: none). */
    pageBudget?: number;
    /** Pages written so far (default: the OPFS counters, io-counters.ts; tests count their own). */
    pagesWritten?: () => number | null;
    /** WAL pages after which the pass checkpoints between its slices (default CHECKPOINT_EVERY_PAGES, checkpoint-slices.ts). */
    checkpointEveryPages?: number;
    /** After the run: the WAL checkpoints it ran between its slices (checkpoint-slices.ts). */
    onCheckpoints?: (checkpoints: readonly { log: number; checkpointed: number }[]) => void;
  } = {},
): Promise<ReindexReport> {
  const t0 = performance.now();
  const saved = driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [JOURNAL]);
  let at = saved ? (JSON.parse(saved.value) as { step: number; after: number }) : { step: 0, after: -1 };
  const counts = { messages: 0, summaries: 0, memories: 0, episodes: 0 };
  // Whether this slice's steps moved `at` since the journal was last written.
  let moved = false;
  const slow = slowestSlices();
  const pacer = createMergePacer(driver, FTS, { pages: opts.mergePages ?? REINDEX_MERGE_PAGES, every: REINDEX_ROWS_PER_MERGE });
  // The WAL checkpointed between slices, in a slice of its own (checkpoint-slices.ts): no slice's COMMIT copies it.
  const checkpointing = checkpointBetweenSlices(driver, { pagesWritten: opts.pagesWritten, everyPages: opts.checkpointEveryPages });
  await runInSlices({
    driver: checkpointing.driver,
    budgetMs: opts.budgetMs,
    budgetCoversCommit: true,
    // Where it stands is in `meta`, written in each slice (endSlice): a slice lost to a power cut is rewritten.
    resumable: true,
    pageBudget: opts.pageBudget === undefined ? REINDEX_PAGE_BUDGET : opts.pageBudget || undefined,
    pagesWritten: opts.pagesWritten,
    now: opts.now,
    // Each table, then the merges at the end: a slice never spans two, and each begins with one step (slices.ts).
    phase: () => at.step,
    step: () => {
      const s = STEPS[at.step];
      if (!s) {
        // Every row rewritten: merge each index, a bounded piece a step, then hand merging back to FTS5.
        if (pacer.finish()) return true;
        setMeta(driver, SEGMENTER_META_KEY, segmenterVersion());
        driver.run('DELETE FROM meta WHERE key = ?', [JOURNAL]);
        moved = false;
        return false;
      }
      // Meanwhile, a bounded merge of the index being rewritten keeps its segments from piling up.
      if (pacer.during(ftsOf(s))) return true;
      const row = driver.get<Record<string, unknown>>(s.select, [at.after]);
      if (row) {
        s.write(driver, row);
        counts[s.table]++;
        at.after = s.rowid(row);
      } else at = { step: at.step + 1, after: -1 };
      moved = true;
      return true;
    },
    // Where it stands, once a slice (a slice of merges alone moves nothing; the last one deleted the journal).
    endSlice: () => {
      if (moved) setMeta(driver, JOURNAL, JSON.stringify(at));
      moved = false;
    },
    onSlice: (ms, timing) => {
      opts.onSlice?.(ms, timing);
      slow.note(timing);
      opts.onProgress?.(counts.messages + counts.summaries + counts.memories + counts.episodes);
    },
  });
  opts.onCheckpoints?.(checkpointing.checkpoints());
  return { ...counts, segmenterVersion: segmenterVersion(), ms: performance.now() - t0, slowSlices: slow.list() };
}
