/**
 * Model-phrased compression summaries, the jobs worker's half (issue 19 deliver item 2): before the weekly
 * compress phase, the episodes due for compression are summarised by the configured model — asked here, outside
 * any transaction or slice, a batch at a time — and written back with lifecycle.compressWith (which skips an
 * episode that changed meanwhile). With no model, or when the model fails or times out, the asking stops and
 * the compress phase uses the deterministic template for the rest; the fallback is recorded in the job's result
 * as a reason code, never with the memory's text.
 */
import { EngineError, unwrap } from '../../domain/errors';
import { acceptedSummary, summaryMessages, SUMMARY_MAX_TOKENS } from '../../domain/lifecycle/summary-prompt';
import type { ModelProvider } from '../../domain/llm/types';
import type { EngineCaller } from '../client/caller';
import type { SummaryCandidate } from '../lifecycle/types';

/** The longest the model may take for one summary. */
export const SUMMARY_TIMEOUT_MS = 30_000;
/** Episodes read per round trip. */
const BATCH = 10;
/** Model calls in one run: a weekly batch can hold thousands of episodes; beyond this, the template. */
export const MODEL_SUMMARIES_PER_RUN = 200;

export interface ModelSummaryReport {
  /** Summaries the model wrote and that were stored. */
  byModel: number;
  /** Summaries not stored because the episode changed while the model was writing. */
  skipped: number;
  /** Why the model stopped being asked (the rest get the template): a code, or null when it never failed. */
  fallback: string | null;
}

const codeOf = (err: unknown) => (err instanceof EngineError ? `${err.code}${typeof err.details?.reason === 'string' ? `:${err.details.reason}` : ''}` : 'INTERNAL');

export async function modelSummaries(opts: { engine: EngineCaller; provider: ModelProvider | null; signal?: AbortSignal }): Promise<ModelSummaryReport> {
  const report: ModelSummaryReport = { byModel: 0, skipped: 0, fallback: null };
  if (!opts.provider?.canGenerate) return { ...report, fallback: 'no-model' };
  const asked = new Set<string>();
  for (let after: number | null = 0; after !== null && asked.size < MODEL_SUMMARIES_PER_RUN && !opts.signal?.aborted; ) {
    const page: { items: SummaryCandidate[]; next: number | null } = unwrap(await opts.engine.call('lifecycle.summaryCandidates', { limit: BATCH, after }));
    after = page.next;
    const fresh = page.items.filter((c) => !asked.has(c.id)).slice(0, MODEL_SUMMARIES_PER_RUN - asked.size);
    const written: { id: string; seen: string; summary: string }[] = [];
    for (const c of fresh) {
      asked.add(c.id);
      try {
        const answer = await opts.provider.chat({
          messages: summaryMessages(c.material),
          temperature: 0,
          maxTokens: SUMMARY_MAX_TOKENS,
          timeoutMs: SUMMARY_TIMEOUT_MS,
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        const summary = acceptedSummary(answer.text);
        if (summary === null) throw new EngineError('MODEL_UNAVAILABLE', 'The model answered with an empty summary.', { reason: 'bad-response' });
        written.push({ id: c.id, seen: c.seen, summary });
      } catch (err) {
        report.fallback = codeOf(err);
        break;
      }
    }
    if (written.length) {
      const res = unwrap(await opts.engine.call('lifecycle.compressWith', { items: written }));
      report.byModel += res.compressed.length;
      report.skipped += res.skipped.length;
    }
    if (report.fallback) break;
  }
  return report;
}
