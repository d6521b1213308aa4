import type { SqlDriver } from './driver';

/**
 * FTS5 merges a full-text index's segments when a transaction that changed it commits ("automerge"): whichever
 * COMMIT writes the 64th leaf page since the last merge also merges 64 × levels pages — a background slice's or a
 * person's message (issue 19 measured 209 ms in the compress pass, and an episode.record whose COMMIT wrote 316
 * WAL pages, 78.8 ms; issue 16 the reindex). So the browser's engine keeps automerge off on every index for good
 * (`automergeAtOpen`, at every open: the setting is stored in the index's %_config table, so it also holds for a
 * database an older version left with FTS5's default; the Node hosts keep FTS5's own, see FtsMerging), and
 * merging is done in bounded pieces of FTS5's incremental 'merge' (which merges where 'usermerge' segments share a
 * level, as automerge would) outside any person's write: between calls by fts-merge-keeper.ts, and by the long
 * passes that write many rows (reindex, import, compress: `createMergePacer`) along the way and at their end.
 * FTS5's 'crisismerge' stays as a backstop (a COMMIT that leaves 16 segments on one level merges that level,
 * automerge or not).
 */
export const FTS_AUTOMERGE_DEFAULT = 4;
/** The engine's setting: off (merging is the keeper's and the passes' work, see above). */
export const FTS_AUTOMERGE_ENGINE = 0;
/** Pages one bounded merge may work through. */
export const FTS_MERGE_PAGES = 8;

export type FtsTable = 'messages_fts' | 'summaries_fts' | 'memories_fts' | 'episodes_fts';
export const FTS_TABLES: readonly FtsTable[] = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];

// FTS5 wants integers here and better-sqlite3 binds numbers as REAL: the (constant) numbers go in the SQL.
const setAutomerge = (driver: SqlDriver, table: FtsTable, n: number) =>
  driver.run(`INSERT INTO ${table} (${table}, rank) VALUES ('automerge', ${Math.trunc(n)})`);

/** Automerge off on `table` (the engine's setting). */
export const automergeOff = (driver: SqlDriver, table: FtsTable): void => void setAutomerge(driver, table, FTS_AUTOMERGE_ENGINE);

/** One bounded piece of merging on `table`; false when there was nothing left to merge. */
export function mergeStep(driver: SqlDriver, table: FtsTable, pages = FTS_MERGE_PAGES): boolean {
  const total = () => driver.get<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0;
  const before = total();
  driver.run(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ${Math.trunc(pages)})`);
  return total() - before >= 2;
}

/** The automerge setting stored in `table` (null: FTS5's default, never set). */
export function storedAutomerge(driver: SqlDriver, table: FtsTable): number | null {
  return driver.get<{ v: number }>(`SELECT v FROM ${table}_config WHERE k = 'automerge'`)?.v ?? null;
}

/**
 * How an engine has FTS5 merge segments (EngineEnv.ftsMerging). 'keeper' (the browser, the default): automerge off,
 * merged between calls by fts-merge-keeper.ts. 'automerge': FTS5's own merging at COMMITs (the Node hosts: a one-shot
 * command has no calls to merge between, and a merge task there would take the write lock other processes wait on).
 */
export type FtsMerging = 'keeper' | 'automerge';
/** The automerge setting an engine of that kind keeps on every index. */
export const automergeFor = (merging: FtsMerging): number => (merging === 'keeper' ? FTS_AUTOMERGE_ENGINE : FTS_AUTOMERGE_DEFAULT);

/**
 * At open: every index's automerge set as the engine keeps it, where it is not (a database from before issue 19, a
 * fresh one — FTS5's default is on —, one a pass cut short left off, one another host opened). A read, and a write
 * only then. Returns the indexes it set.
 */
export function automergeAtOpen(driver: SqlDriver, merging: FtsMerging = 'keeper'): FtsTable[] {
  const want = automergeFor(merging);
  const present = new Set(driver.all<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%_fts_config'").map((r) => r.name));
  const differ = FTS_TABLES.filter((t) => present.has(`${t}_config`) && (storedAutomerge(driver, t) ?? FTS_AUTOMERGE_DEFAULT) !== want);
  if (differ.length) driver.transaction(() => differ.forEach((t) => setAutomerge(driver, t, want)));
  return differ;
}

/** Steps between two bounded merges while a pass writes rows (each slice's COMMIT adds a segment per index). */
export const MERGE_EVERY_STEPS = 4;

export interface MergePacer {
  /**
   * Call at the start of each step of the pass: turns automerge off on the indexes (the first time), and every
   * `every` steps does one bounded merge instead of the step's writes — true: the step was that merge. `table`:
   * the index to merge (the one the pass is writing); without it the indexes take turns.
   */
  during(table?: FtsTable): boolean;
  /**
   * After the pass's last row: one bounded merge per call, true while merging is left; then each index's automerge
   * as the pass found it (the engine's setting: off in the browser, on in the Node hosts). A pass that resumes past
   * its rows (cut short while merging at the end) starts here.
   */
  finish(): boolean;
}

/**
 * The one way a pass that writes full-text rows in slices merges FTS5 segments (issue 16: maintenance.reindex,
 * fts-reindex-slices.ts, and backup import apply, whose slices spent up to a third of their time in the COMMIT
 * where automerge merged): automerge off (already, where an engine opened the database), a bounded merge every few
 * steps, each index merged to the end a bounded piece a step. A pass writes many segments between the keeper's
 * tasks (fts-merge-keeper.ts), so it merges its own. A step is whatever the pass makes it (a row, a few rows):
 * `every` says how many steps a merge pays for.
 */
export function createMergePacer(driver: SqlDriver, tables: readonly FtsTable[], opts: { pages?: number; every?: number } = {}): MergePacer {
  const every = opts.every ?? MERGE_EVERY_STEPS;
  let off = false;
  let steps = 0;
  let turn = 0;
  let finishing = 0;
  // What each index had when the pass began (the engine's setting): put back once everything is merged.
  let found: number[] = [];
  let restored = false;
  const turnOff = () => {
    if (off) return;
    found = tables.map((t) => storedAutomerge(driver, t) ?? FTS_AUTOMERGE_DEFAULT);
    for (const t of tables) automergeOff(driver, t);
    off = true;
  };
  const restore = () => {
    if (restored || !off) return;
    tables.forEach((t, i) => {
      if (found[i] !== FTS_AUTOMERGE_ENGINE) setAutomerge(driver, t, found[i] as number);
    });
    restored = true;
  };
  return {
    during(table) {
      if (tables.length === 0) return false;
      turnOff();
      if (++steps % every !== 0) return false;
      mergeStep(driver, table ?? (tables[turn++ % tables.length] as FtsTable), opts.pages);
      return true;
    },
    finish() {
      const t = tables[finishing];
      if (!t) return false;
      turnOff();
      if (mergeStep(driver, t, opts.pages)) return true;
      if (finishing++ < tables.length - 1) return true;
      restore();
      return false;
    },
  };
}

/**
 * Keeping a read-heavy index in one segment (issue 17). Episode recall's ranking statement walks every segment of
 * episodes_fts for each query; automerge leaves ~7 at 10,000 episodes recorded one per transaction. Merged into
 * one, the statement cost 21 % less and the whole episode.query 17 % less natively (CPU, 200 queries × 3, alternately
 * on the same database before and after: 5.49 / 5.22 → 4.50 / 4.34 ms; the merge took 59 steps of 8 pages, the
 * longest 11.5 ms, 82 ms in all). Doing that in a foreground COMMIT would stall someone (issue 16), so the lifecycle
 * pass does it in the background, a bounded piece a step: FTS5's 'merge' with a negative page count starts a merge
 * of every segment into one, positive ones carry it on (FTS5 stores a merge in progress in the index, so a pass cut
 * short resumes where it stopped — and the merge keeper's next piece carries it on, fts-merge-keeper.ts).
 *
 * The signal is the index's own shape: the share of its pages outside the biggest segment, which grows with what was
 * written since the last full merge (a merged index is one segment; each record adds one, automerge merges them
 * among themselves, not into the big one). Pages are counted from the `_idx` table (a row per leaf page that starts
 * a term: a few hundred rows at 10,000 episodes).
 */
export interface FullMergeOpts {
  /** Pages one step merges (FTS_MERGE_PAGES). */
  pages?: number;
  /** Share of the index's pages outside its biggest segment from which a full merge starts (FULL_MERGE_SHARE). */
  share?: number;
  /** And at least this many pages outside it (FULL_MERGE_MIN_PAGES): a small index is cheap to read as it is. */
  minPages?: number;
}
export const FULL_MERGE_SHARE = 0.1;
export const FULL_MERGE_MIN_PAGES = 32;

/** Leaf pages per segment of `table` (biggest first), from its `_idx` table. */
export function segmentPages(driver: SqlDriver, table: FtsTable): number[] {
  return driver.all<{ pages: number }>(`SELECT count(*) AS pages FROM ${table}_idx GROUP BY segid ORDER BY pages DESC`).map((r) => r.pages);
}

/** Whether `table` has enough pages outside its biggest segment for a full merge to pay. */
export function fullMergeDue(driver: SqlDriver, table: FtsTable, opts: FullMergeOpts = {}): boolean {
  const [biggest = 0, ...rest] = segmentPages(driver, table);
  const outside = rest.reduce((a, b) => a + b, 0);
  return outside >= (opts.minPages ?? FULL_MERGE_MIN_PAGES) && outside >= (opts.share ?? FULL_MERGE_SHARE) * (biggest + outside);
}

/**
 * A full merge of `table` as steps for a pass in slices: `step()` does one bounded piece (`pages` pages) and says
 * whether work is left. First it carries on a merge a cut-short pass left in progress; then, if the signal holds
 * (fullMergeDue), it starts one and carries it to the end; otherwise it does nothing and returns false.
 */
export function createFullMerge(driver: SqlDriver, table: FtsTable, opts: FullMergeOpts = {}): { step(): boolean } {
  const pages = Math.max(1, Math.trunc(opts.pages ?? FTS_MERGE_PAGES));
  let phase: 'resume' | 'check' | 'merging' | 'done' = 'resume';
  return {
    step() {
      if (phase === 'done') return false;
      if (phase === 'resume' || phase === 'merging') {
        if (mergeStep(driver, table, pages)) return true;
        phase = phase === 'resume' ? 'check' : 'done';
        if (phase === 'done') return false;
      }
      if (!fullMergeDue(driver, table, opts)) return ((phase = 'done'), false);
      driver.run(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ${-pages})`);
      phase = 'merging';
      return true;
    },
  };
}
