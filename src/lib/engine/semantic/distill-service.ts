/**
 * Distillation's engine side (seed 003 "语义记忆蒸馏"; the work itself runs in the jobs worker):
 *
 *   distill.status  paused? new episodes since the last one, what is due, the last run
 *   distill.begin   one at a time (a 10-minute lease; an older running one is closed as TIMEOUT) ─▶ the
 *                   snapshot: every episode up to the current last one (numbers, no text) and every rule,
 *                   read in the one transaction that records the run — a consistent snapshot while new
 *                   episodes keep being written (003 并发蒸馏与写入冲突隔离); they count for the next one
 *   distill.apply   the plan in one transaction, against the rules as they are *now* (the user may have
 *                   deleted, confirmed or edited one meanwhile): create · update · drift, history for
 *                   each, conflict detection (003 "冲突检测在每次蒸馏完成后自动执行"), the budget
 *   distill.fail    the run ends failed; the rules are untouched, and the episodes it read still count
 *                   as new, so the next trigger tries again (003 蒸馏服务不可用时的降级)
 */
import { EngineError } from '../../domain/errors';
import type { ExistingRule } from '../../domain/semantic/distill';
import type { ContextDeps } from '../context/deps';
import type { SemanticRule } from '../context/types';
import { BATCH_EPISODES, DISTILL_REQUEST_KEY } from '../episodes/outcome';
import { createConflictService } from './conflict-service';
import type { AppliedRule, DistillApplyResult, DistillSnapshot, DistillStatus, DistillTrigger } from './types';

export const DISTILL_LEASE_MS = 10 * 60_000;
const RUNS_KEPT = 50;

const snapshotOf = (r: Pick<SemanticRule, 'rule' | 'confidence' | 'version'>) => ({ rule: r.rule, confidence: r.confidence, version: r.version });
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function createDistillService(deps: ContextDeps) {
  const { env, learning, episodes, rules } = deps;
  const conflicts = createConflictService(deps);
  const paused = () => !deps.settings.get()['preferences.learning'];
  const requested = () => env.driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [DISTILL_REQUEST_KEY])?.value ?? null;

  function status(): DistillStatus {
    const lastDone = learning.distill.last('done') ?? null;
    const newEpisodes = episodes.countAfter(lastDone?.watermark ?? 0);
    const running = learning.distill.running() ?? null;
    const lastRun = learning.distill.last() ?? null;
    const sinceLastRun = lastRun ? episodes.countAfter(lastRun.watermark) : newEpisodes;
    // After a failure the same trigger waits for the next episode (003 "下次触发条件满足时重试"), so a model
    // that is down is not asked again every half minute.
    const retryable = lastRun?.status !== 'failed' || sinceLastRun > 0;
    let due: DistillTrigger | null = null;
    if (!paused() && !running && retryable) due = requested() === 'conflict' ? 'conflict' : newEpisodes >= BATCH_EPISODES ? 'batch' : null;
    return {
      paused: paused(),
      newEpisodes,
      sinceLastRun,
      totalEpisodes: episodes.count(),
      due,
      running,
      lastRun,
      lastDone,
      openConflicts: learning.conflicts.open().length,
    };
  }

  function existing(): ExistingRule[] {
    return rules.all().map((r) => ({
      id: r.id,
      scope: r.scope,
      projectId: r.projectId,
      key: r.key,
      source: r.source,
      status: r.status,
      userConfirmed: r.userConfirmed,
      userModified: r.userModified,
      confidence: r.confidence,
      penalty: r.penalty,
      basis: r.basis,
    }));
  }

  function applyOne(a: AppliedRule, distillId: string, out: DistillApplyResult): void {
    const current = rules.byKey(a.scope, a.projectId, a.key);
    if (current?.status === 'deleted') return void out.skipped.push({ key: a.key, reason: 'deleted' });
    if (current?.userConfirmed) return void out.skipped.push({ key: a.key, reason: 'confirmed' });
    if (current?.source === 'user') return void out.skipped.push({ key: a.key, reason: 'user-rule' });
    if (!current) {
      if (a.projectId) deps.projects.mustFind(a.projectId, 'projectId');
      const created = rules.insert({
        rule: a.rule,
        category: a.category,
        scope: a.scope,
        projectId: a.projectId,
        key: a.key,
        confidence: a.confidence,
        source: 'learned',
        userConfirmed: false,
        supporting: a.supporting,
        contradicting: a.contradicting,
        basis: a.basis,
      });
      learning.history.add({ ruleId: created.id, projectId: created.projectId, action: 'created', actor: 'distill', before: null, after: snapshotOf(created), episodes: a.supporting, distillId });
      out.created.push(created.id);
      return;
    }
    const poleChanged = JSON.stringify(current.basis) !== JSON.stringify(a.basis);
    const drift = a.change === 'drift' || (poleChanged && current.basis.length > 0);
    // A text the user edited stays theirs; the evidence and confidence still follow the episodes.
    const text = current.userModified ? current.rule : drift || current.basis.length === 0 ? a.rule : current.rule;
    if (current.userModified && text !== a.rule && drift) out.skipped.push({ key: a.key, reason: 'modified' });
    const unchanged =
      text === current.rule && a.confidence === current.confidence && sameList(a.supporting, current.supporting) && sameList(a.contradicting, current.contradicting) && !poleChanged;
    if (unchanged) return;
    const next = rules.patch(current.id, {
      rule: text,
      category: drift ? a.category : current.category,
      confidence: a.confidence,
      supporting: a.supporting,
      contradicting: a.contradicting,
      basis: current.userModified && !drift ? current.basis : a.basis,
      ...(drift ? { driftedAt: env.clock.now() } : {}),
    });
    learning.history.add({
      ruleId: current.id,
      projectId: current.projectId,
      action: drift ? 'drift' : 'updated',
      actor: 'distill',
      before: snapshotOf(current),
      after: snapshotOf(next),
      episodes: a.supporting,
      distillId,
    });
    (drift ? out.drifted : out.updated).push(current.id);
  }

  return {
    status,

    begin(input: { trigger: DistillTrigger }): { state: 'started'; snapshot: DistillSnapshot } | { state: 'skipped'; reason: 'paused' | 'running' } {
      if (paused()) return { state: 'skipped', reason: 'paused' };
      const now = env.clock.now();
      const running = learning.distill.running();
      if (running && now - running.startedAt < DISTILL_LEASE_MS) return { state: 'skipped', reason: 'running' };
      // 004 "pending 状态被清理（不挂起）": a run that never came back is closed, not left running.
      if (running) learning.distill.finish(running.id, 'failed', { errorCode: 'TIMEOUT' });
      const watermark = episodes.maxRid();
      const evidence = episodes.evidence(watermark, (skillId) => {
        try {
          return deps.skills.get(skillId).replacesInput;
        } catch {
          return false;
        }
      });
      const run = learning.distill.begin(input.trigger, watermark, evidence.length);
      env.log.info('distill.begin', { trigger: input.trigger, episodes: evidence.length });
      return { state: 'started', snapshot: { run, episodes: evidence, rules: existing(), now } };
    },

    apply(input: { distillId: string; rules: AppliedRule[]; refresh: { ruleId: string; confidence: number; supporting: string[]; contradicting: string[] }[] }): DistillApplyResult {
      const run = learning.distill.find(input.distillId);
      if (!run) throw new EngineError('NOT_FOUND', 'No distillation with that `distillId`.', { field: 'distillId' });
      if (run.status !== 'running') throw new EngineError('CONFLICT', `That distillation (\`distillId\`) is ${run.status}; its plan is no longer applied.`, { field: 'distillId' });
      const out: DistillApplyResult = { created: [], updated: [], drifted: [], skipped: [], conflicts: [] };
      for (const a of input.rules) applyOne(a, run.id, out);
      for (const r of input.refresh) {
        const current = rules.find(r.ruleId);
        if (!current || current.status !== 'active' || current.userConfirmed || current.source !== 'learned') continue;
        if (current.confidence === r.confidence && sameList(current.supporting, r.supporting) && sameList(current.contradicting, r.contradicting)) continue;
        const next = rules.patch(current.id, { confidence: r.confidence, supporting: r.supporting, contradicting: r.contradicting });
        learning.history.add({ ruleId: current.id, projectId: current.projectId, action: 'updated', actor: 'distill', before: snapshotOf(current), after: snapshotOf(next), episodes: r.supporting, distillId: run.id });
        out.updated.push(current.id);
      }
      out.conflicts = conflicts.detect({ distillId: run.id }).map((c) => c.id);
      for (const id of rules.evictOverCap()) learning.conflicts.closeForRule(id);
      env.driver.run('DELETE FROM meta WHERE key = ?', [DISTILL_REQUEST_KEY]);
      learning.distill.finish(run.id, 'done', {
        result: { created: out.created.length, updated: out.updated.length, drifted: out.drifted.length, skipped: out.skipped.length, conflicts: out.conflicts.length },
      });
      learning.distill.prune(RUNS_KEPT);
      env.log.info('distill.applied', { created: out.created.length, updated: out.updated.length, drifted: out.drifted.length, conflicts: out.conflicts.length });
      return out;
    },

    fail(input: { distillId: string; errorCode: string }): { failed: boolean } {
      const run = learning.distill.find(input.distillId);
      if (!run) throw new EngineError('NOT_FOUND', 'No distillation with that `distillId`.', { field: 'distillId' });
      if (run.status !== 'running') return { failed: false };
      learning.distill.finish(run.id, 'failed', { errorCode: input.errorCode });
      env.log.warn('distill.failed', { code: input.errorCode });
      return { failed: true };
    },

    conflicts,
  };
}

export type DistillService = ReturnType<typeof createDistillService>;
