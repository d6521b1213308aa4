/**
 * feedback.record (seed 004 "采纳/拒绝触发偏好信号入库"): store the event, then learn from it — in the
 * same write transaction and within a time budget:
 *
 *   completed run? ─canceled─▶ CANCELED, timed out─▶ TIMEOUT, pending/failed─▶ CONFLICT
 *                  (none of them has a result to judge; nothing is stored)
 *   features(output) ─▶ feedback_events ─▶ learnPreferences(events of this skill & project)
 *        └─▶ semantic_rules: create | update | skip (deleted key, confirmed, user-modified text)
 *   budget exceeded ─▶ TIMEOUT: the transaction rolls back, the event is not stored, nothing is pending;
 *                      the UI may send the same feedback again.
 */
import { distance } from 'fastest-levenshtein';
import { EngineError } from '../../domain/errors';
import type { ContextDeps } from './deps';
import { computeFeatures, learnPreferences, type RuleProposal } from './preference-learner';
import type { FeedbackResult, SampleRef } from './types';

/** The learner looks at the most recent events of a skill in a scope. */
const LEARNING_WINDOW = 200;

export interface FeedbackInput {
  runId: string;
  action: 'accept' | 'reject' | 'partial';
  sampleRefs: SampleRef[];
  editDistance?: number;
  /** What the model produced. */
  outputText?: string;
  /** What the user kept (accept/partial); never stored, only its features are. */
  finalText?: string;
}

/** 003 editDistance as a share: Levenshtein distance over the longer text's length. */
function relativeDistance(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : Math.round((distance(a, b) / longest) * 1000) / 1000;
}

export function createFeedbackService(deps: ContextDeps) {
  const { rules } = deps;

  function apply(p: RuleProposal, scope: { scope: 'global' | 'project'; projectId: string | null }, out: FeedbackResult['learning']): void {
    const existing = rules.byKey(scope.scope, scope.projectId, p.key);
    if (existing?.status === 'deleted') return void out.skipped.push({ key: p.key, reason: 'deleted' });
    if (existing?.userConfirmed) return void out.skipped.push({ key: p.key, reason: 'confirmed' });
    if (!existing) {
      const created = rules.insert({ ...p, ...scope, source: 'learned', userConfirmed: false });
      out.created.push(created.id);
      return;
    }
    // A text the user edited stays theirs; the evidence and confidence still follow the events.
    const text = existing.userModified ? existing.rule : p.rule;
    if (existing.userModified && text !== p.rule) out.skipped.push({ key: p.key, reason: 'modified' });
    const same =
      text === existing.rule &&
      p.confidence === existing.confidence &&
      JSON.stringify(p.supporting) === JSON.stringify(existing.supporting) &&
      JSON.stringify(p.contradicting) === JSON.stringify(existing.contradicting);
    if (same) return;
    rules.patch(existing.id, { rule: text, confidence: p.confidence, supporting: p.supporting, contradicting: p.contradicting });
    out.updated.push(existing.id);
  }

  return {
    /** Synchronous: runs inside the engine's write transaction, so TIMEOUT rolls everything back. */
    record(input: FeedbackInput): FeedbackResult {
      const started = performance.now();
      const run = deps.runs.mustFind(input.runId);
      // 004 "用户取消/超时": feedback on a canceled or timed-out run says so, with its own code.
      if (run.status === 'canceled') {
        throw new EngineError('CANCELED', 'That run (`runId`) was canceled; there is no result to give feedback on.', { field: 'runId', status: run.status });
      }
      if (run.status === 'timeout') {
        throw new EngineError('TIMEOUT', 'That run (`runId`) timed out; there is no result to give feedback on.', { field: 'runId', status: run.status });
      }
      if (run.status !== 'completed') {
        throw new EngineError('CONFLICT', `Feedback needs a completed run; this run (\`runId\`) is ${run.status}.`, { field: 'runId', status: run.status });
      }
      const kept = input.action === 'reject' ? (input.outputText ?? input.finalText) : (input.finalText ?? input.outputText);
      const editDistance =
        input.editDistance ?? (input.outputText !== undefined && input.finalText !== undefined ? relativeDistance(input.outputText, input.finalText) : null);
      const event = deps.feedback.insert({
        runId: run.id,
        skillId: run.skillId,
        projectId: run.projectId,
        action: input.action,
        sampleRefs: input.sampleRefs,
        editDistance,
        features: computeFeatures({ text: kept, inputChars: run.inputChars }),
      });
      const budget = deps.tuning.learningBudgetMs;
      const checkpoint = () => {
        if (performance.now() - started >= budget) {
          throw new EngineError('TIMEOUT', 'Preference learning took longer than its budget; the feedback was not stored. Send it again.', { budgetMs: budget });
        }
      };
      const scope = run.projectId ? { scope: 'project' as const, projectId: run.projectId } : { scope: 'global' as const, projectId: null };
      const paused = !deps.settings.get()['preferences.learning'];
      const learning: FeedbackResult['learning'] = { created: [], updated: [], skipped: [], ms: 0, paused };
      // Paused (settings): the event is kept for the record and for later, nothing is learned now.
      if (!paused) {
        const events = deps.feedback.forLearning(run.skillId, run.projectId, LEARNING_WINDOW);
        for (const proposal of learnPreferences({ skillId: run.skillId, events, checkpoint })) apply(proposal, scope, learning);
        if (learning.created.length > 0) rules.evictOverCap();
      }
      learning.ms = Math.round(performance.now() - started);
      deps.env.log.info('feedback.recorded', { action: input.action, created: learning.created.length, updated: learning.updated.length });
      const { features: _features, ...stored } = event;
      return { event: stored, learning };
    },
    list: (opts: { runId?: string; skillId?: string; limit: number }) => deps.feedback.list(opts),
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
