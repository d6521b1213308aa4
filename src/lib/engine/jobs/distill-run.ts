/**
 * One distillation, as the jobs worker runs it (seed 003 "语义记忆蒸馏", "蒸馏过程必须在后台异步执行"):
 *
 *   distill.begin ─▶ snapshot (or skipped: paused, another one running)
 *     ─▶ distill() — the pure plan, progress per scope                         (learning.step.patterns)
 *     ─▶ with a model: phrase the new and drifted patterns, zod-validated        (learning.step.phrasing)
 *        without one: the statistics' templates
 *     ─▶ distill.apply — one transaction                                        (learning.step.apply)
 *   any failure (model down, timeout, an unusable answer, apply refused) ─▶ distill.fail: the rules stay as
 *   they were and the next trigger tries again (003 蒸馏服务不可用时的降级). Nothing is shown as a toast:
 *   the memory panel shows the last run's state.
 */
import { EngineError, unwrap } from '../../domain/errors';
import type { ModelProvider } from '../../domain/llm/types';
import { distill, type RuleProposal } from '../../domain/semantic/distill';
import { phrasedRules, phrasingAnswerSchema, phrasingMessages, type PatternExamples } from '../../domain/semantic/phrasing';
import { groupKey } from '../../domain/semantic/templates';
import type { EngineCaller } from '../client/caller';
import type { AppliedRule, DistillApplyResult, DistillTrigger } from '../semantic/types';
import { keptText } from '../../domain/episodes/summary';

export type DistillOutcome =
  | { state: 'skipped'; reason: 'paused' | 'running' }
  | { state: 'done'; distillId: string; episodes: number; proposals: number; phrasedBy: 'model' | 'template'; result: DistillApplyResult }
  | { state: 'failed'; distillId: string; code: string };

/** The model may take this long to phrase the patterns. */
export const PHRASING_TIMEOUT_MS = 60_000;
const EXAMPLES_PER_PATTERN = 2;

function codeOf(err: unknown): string {
  if (err instanceof EngineError) return err.code;
  if (err instanceof Error && err.name === 'ZodError') return 'MODEL_ANSWER_INVALID';
  return 'INTERNAL';
}

function toApplied(p: RuleProposal, text: string, phrasedBy: AppliedRule['phrasedBy']): AppliedRule {
  return {
    scope: p.scope,
    projectId: p.projectId,
    key: p.key,
    rule: text,
    category: p.category,
    confidence: p.confidence,
    supporting: p.supporting,
    contradicting: p.contradicting,
    basis: [{ pattern: p.key, pole: p.pole }],
    change: p.change,
    phrasedBy,
  };
}

/** A few texts the user kept and did not want for each pattern: what the model phrases from. */
async function examplesFor(engine: EngineCaller, patterns: readonly RuleProposal[]): Promise<PatternExamples[]> {
  const wanted = patterns.map((p) => ({ key: p.key, kept: p.supporting.slice(-EXAMPLES_PER_PATTERN), rejected: p.contradicting.slice(-1) }));
  const ids = [...new Set(wanted.flatMap((w) => [...w.kept, ...w.rejected]))].slice(0, 100);
  const episodes = new Map(unwrap(await engine.call('episode.getMany', { ids })).map((e) => [e.id, e]));
  return wanted.map((w) => ({
    key: w.key,
    kept: w.kept.map((id) => episodes.get(id)).filter((e) => e !== undefined).map((e) => keptText(e)).filter((t) => t !== ''),
    rejected: w.rejected
      .map((id) => episodes.get(id))
      .filter((e) => e !== undefined)
      .flatMap((e) => (e.selectedIndex < 0 ? e.candidates.slice(0, 1) : e.candidates.filter((_, i) => i !== e.selectedIndex).slice(0, 1))),
  }));
}

/**
 * The model's phrasing of the patterns that need new words (created or drifted). Patterns of one group
 * it joins become one rule over all of them — only new ones: a drifted rule keeps its own key.
 */
async function phrase(opts: { engine: EngineCaller; provider: ModelProvider; proposals: RuleProposal[]; signal?: AbortSignal }): Promise<AppliedRule[]> {
  const fresh = opts.proposals.filter((p) => p.change !== 'update');
  const examples = await examplesFor(opts.engine, fresh);
  const answer = await opts.provider.json(
    { messages: phrasingMessages(fresh, examples), json: true, temperature: 0, timeoutMs: PHRASING_TIMEOUT_MS, ...(opts.signal ? { signal: opts.signal } : {}) },
    phrasingAnswerSchema,
  );
  const { rules } = phrasedRules(answer, fresh);
  const done = new Set<RuleProposal>();
  const out: AppliedRule[] = [];
  for (const r of rules) {
    const parts = r.keys.map((k) => fresh.find((p) => p.key === k)).filter((p): p is RuleProposal => p !== undefined);
    if (parts.length !== r.keys.length || (parts.length > 1 && parts.some((p) => p.change !== 'create'))) continue;
    const [first] = parts as [RuleProposal];
    const joined: AppliedRule =
      parts.length === 1
        ? { ...toApplied(first, r.rule, 'model'), category: r.category }
        : {
            ...toApplied(first, r.rule, 'model'),
            key: `${groupKey(first.group)}.${parts.map((p) => p.hypothesis).sort().join('+')}`,
            category: r.category,
            confidence: Math.min(...parts.map((p) => p.confidence)),
            supporting: [...new Set(parts.flatMap((p) => p.supporting))],
            contradicting: [...new Set(parts.flatMap((p) => p.contradicting))],
            basis: parts.map((p) => ({ pattern: p.key, pole: p.pole })),
          };
    parts.forEach((p) => done.add(p));
    out.push(joined);
  }
  return [...out, ...opts.proposals.filter((p) => !done.has(p)).map((p) => toApplied(p, p.text, 'template'))];
}

export async function runDistillation(opts: {
  engine: EngineCaller;
  /** null, or a provider that cannot generate: the statistics' templates phrase the rules. */
  provider: ModelProvider | null;
  trigger: DistillTrigger;
  progress?: (fraction: number, step: string) => void;
  signal?: AbortSignal;
}): Promise<DistillOutcome> {
  const { engine } = opts;
  const progress = opts.progress ?? (() => undefined);
  progress(0.05, 'learning.step.snapshot');
  const begun = unwrap(await engine.call('distill.begin', { trigger: opts.trigger }));
  if (begun.state === 'skipped') return begun;
  const { run, episodes, rules, now } = begun.snapshot;
  try {
    const plan = distill({ episodes, rules, now, onScope: (done, total) => progress(0.1 + 0.5 * (done / total), 'learning.step.patterns') });
    const model = opts.provider?.canGenerate === true && plan.proposals.some((p) => p.change !== 'update');
    let applied: AppliedRule[];
    if (model && opts.provider) {
      progress(0.65, 'learning.step.phrasing');
      applied = await phrase({ engine, provider: opts.provider, proposals: plan.proposals, ...(opts.signal ? { signal: opts.signal } : {}) });
    } else {
      applied = plan.proposals.map((p) => toApplied(p, p.text, 'template'));
    }
    progress(0.9, 'learning.step.apply');
    const result = unwrap(await engine.call('distill.apply', { distillId: run.id, rules: applied, refresh: plan.refresh }));
    progress(1, 'learning.step.done');
    return { state: 'done', distillId: run.id, episodes: episodes.length, proposals: plan.proposals.length, phrasedBy: model ? 'model' : 'template', result };
  } catch (err) {
    const code = codeOf(err);
    await engine.call('distill.fail', { distillId: run.id, errorCode: code });
    return { state: 'failed', distillId: run.id, code };
  }
}
