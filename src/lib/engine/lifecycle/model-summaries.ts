/**
 * Model-phrased compression summaries (issue 19 deliver item 2), the engine's half. The jobs worker asks for the
 * episodes due for compression with what the model may read of them (`material`), asks the configured model
 * outside any transaction, then hands the summaries back (`compressWith`): each is written in one small
 * transaction only if the episode is still what the model read — not compressed, pinned, recalled, edited or
 * deleted meanwhile (`seen`) and still due. Anything skipped or never asked is compressed by the pass with
 * the template.
 */
import * as B from '../../domain/lifecycle/budgets';
import type { SummaryMaterial } from '../../domain/lifecycle/summary-prompt';
import type { Clock } from '../../domain/clock';
import type { SqlDriver } from '../store/driver';
import { episodeLabel, type Ledger } from './ledger';
import { compressEpisode, FULL, templateSummary, type FullRow } from './passes';

export interface SummaryCandidate {
  id: string;
  /** What the episode was when read: its summary is written only if it still is. */
  seen: string;
  material: SummaryMaterial;
}

type Row = FullRow & { input_summary: string; final_text: string | null; updated_at: number; last_recalled_at: number | null; recall_count: number };
const seenOf = (r: Row) => `${r.updated_at}|${r.last_recalled_at ?? ''}|${r.recall_count}`;
const DUE = '+compressed = 0 AND pinned = 0 AND (decay < 0.3 OR created_at < ?)';
const COLUMNS = `${FULL}, input_summary, final_text, updated_at, last_recalled_at, recall_count`;

/** Rowids one call looks through: bounded work on the DB worker, like a lifecycle slice's window. */
export const CANDIDATE_WINDOW = 1_024;

/**
 * Up to `limit` due episodes after rowid `after`, looking through at most CANDIDATE_WINDOW rowids; `next`: where
 * the next call goes on (null: the end of the table).
 */
export function summaryCandidates(driver: SqlDriver, clock: Clock, opts: { limit: number; after: number }): { items: SummaryCandidate[]; next: number | null } {
  const last = driver.get<{ n: number | null }>('SELECT MAX(rid) AS n FROM episodes')?.n ?? 0;
  const end = opts.after + CANDIDATE_WINDOW;
  const rows = driver.all<Row>(`SELECT ${COLUMNS} FROM episodes WHERE rid > ? AND rid <= ? AND ${DUE} ORDER BY rid LIMIT ?`, [opts.after, end, clock.now() - B.EPISODE_TTL_MS, opts.limit]);
  const items = rows.map((r) => {
    const candidates = JSON.parse(r.candidates) as string[];
    return { id: r.id, seen: seenOf(r), material: { template: templateSummary(r), input: r.input_summary, kept: r.final_text ?? candidates[r.selected_index] ?? '' } };
  });
  const reached = rows.length === opts.limit ? rows[rows.length - 1]!.rid : end;
  return { items, next: reached >= last ? null : reached };
}

export function compressWith(driver: SqlDriver, clock: Clock, ledger: Ledger, items: readonly { id: string; seen: string; summary: string }[]): { compressed: string[]; skipped: string[] } {
  const now = clock.now();
  const out = { compressed: [] as string[], skipped: [] as string[] };
  for (const item of items) {
    driver.transaction(() => {
      const e = driver.get<Row>(`SELECT ${COLUMNS} FROM episodes WHERE id = ? AND ${DUE}`, [item.id, now - B.EPISODE_TTL_MS]);
      if (!e || seenOf(e) !== item.seen) return void out.skipped.push(item.id);
      compressEpisode(driver, e, now, item.summary);
      ledger.note({ itemType: 'episode', itemId: e.id, projectId: e.project_id, action: 'compressed', reason: e.decay < 0.3 ? 'decay' : 'ttl', decay: e.decay, text: episodeLabel(e) });
      out.compressed.push(item.id);
    });
  }
  return out;
}
