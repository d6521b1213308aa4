/**
 * 003 "记忆冲突检测与解决", the direct contradiction ("同时期两条互斥规则"):
 *
 *   detect (after every distillation, and after a person adds, edits or promotes a rule)
 *     two active rules of one scope (both global, or one project) whose claims contradict (claims.ts)
 *     ─▶ a conflict: both lose confidence (× CONFLICT_FACTOR; a confirmed rule keeps its own), neither is
 *        injected as a fact (static-sources preferenceItems), the memory panel asks the user to choose
 *   resolve { keep }
 *     ─▶ the kept rule: confirmed, its confidence from before the conflict
 *     ─▶ the other: deleted — its key remembered and its supporting episodes marked negative, so it is
 *        never learned again
 *
 * A pair is raised once: an open conflict is not raised again, and a resolved one is settled.
 * Scope overlap (a global rule against a project rule) is not a direct contradiction: the project rule
 * wins in its project (preferences.ts masks the global one there).
 */
import { EngineError } from '../../domain/errors';
import { claimsOf, contradiction } from '../../domain/semantic/claims';
import type { ContextDeps } from '../context/deps';
import type { SemanticRule } from '../context/types';
import type { RuleConflict } from './types';

/** 003 "降低两条规则的置信度": by half. */
export const CONFLICT_FACTOR = 0.5;

type Rule = SemanticRule & { order: number };

const snapshot = (r: Pick<SemanticRule, 'rule' | 'confidence' | 'version'>) => ({ rule: r.rule, confidence: r.confidence, version: r.version });

export function createConflictService(deps: ContextDeps) {
  const { rules, learning } = deps;

  /** A deleted rule's evidence counts against it from now on (003 "支撑该规则的情景记忆标记为负向"). */
  function negateSupport(rule: Rule): void {
    const ids = rule.supporting.filter((id) => !id.startsWith('trace:'));
    for (const b of rule.basis) deps.episodes.negate(ids, b);
  }

  function lower(rule: Rule, distillId: string | null): void {
    if (rule.userConfirmed) {
      learning.history.add({ ruleId: rule.id, projectId: rule.projectId, action: 'conflict', actor: 'system', before: snapshot(rule), after: snapshot(rule), episodes: [], distillId });
      return;
    }
    const next = rules.patch(rule.id, { confidence: Math.round(rule.confidence * CONFLICT_FACTOR * 100) / 100 });
    learning.history.add({ ruleId: rule.id, projectId: rule.projectId, action: 'conflict', actor: 'system', before: snapshot(rule), after: snapshot(next), episodes: [], distillId });
  }

  return {
    /** Finds new direct contradictions among the active rules; returns the conflicts it opened. */
    detect(opts: { distillId?: string | null } = {}): RuleConflict[] {
      const active = rules.list({ includeDeleted: false });
      const scopes = new Map<string, Rule[]>();
      for (const r of active) {
        const k = r.scope === 'global' ? 'global' : `project:${r.projectId}`;
        scopes.set(k, [...(scopes.get(k) ?? []), r]);
      }
      const opened: RuleConflict[] = [];
      for (const list of scopes.values()) {
        const claims = new Map(list.map((r) => [r.id, claimsOf(r)]));
        for (let i = 0; i < list.length; i++) {
          for (let j = i + 1; j < list.length; j++) {
            const a = list[i] as Rule;
            const b = list[j] as Rule;
            const hit = contradiction(claims.get(a.id) ?? [], claims.get(b.id) ?? [], { bothLearned: a.source === 'learned' && b.source === 'learned' });
            if (!hit || learning.conflicts.between(a.id, b.id)) continue;
            const c = learning.conflicts.insert({ projectId: a.projectId, ruleA: a.id, ruleB: b.id, dimension: hit.a.dimension, confidenceA: a.confidence, confidenceB: b.confidence });
            lower(a, opts.distillId ?? null);
            lower(b, opts.distillId ?? null);
            deps.env.log.info('rules.conflict', { dimension: hit.a.dimension });
            opened.push(c);
          }
        }
      }
      return opened;
    },

    list: (projectId?: string | null): RuleConflict[] => learning.conflicts.open(projectId),

    /** 003 "当用户选择「偏好短句」→ 标记为 userConfirmed，「偏好长句」被删除". */
    resolve(input: { conflictId: string; keepRuleId: string }): { kept: SemanticRule; deleted: string } {
      const c = learning.conflicts.find(input.conflictId);
      if (!c) throw new EngineError('NOT_FOUND', 'No conflict with that `conflictId`.', { field: 'conflictId' });
      if (c.resolvedAt !== null) throw new EngineError('CONFLICT', 'That conflict (`conflictId`) was already settled.', { field: 'conflictId' });
      if (input.keepRuleId !== c.ruleA && input.keepRuleId !== c.ruleB) {
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `keepRuleId`: it must be one of the two rules in the conflict', { fields: ['keepRuleId'] });
      }
      const otherId = input.keepRuleId === c.ruleA ? c.ruleB : c.ruleA;
      const keep = rules.mustFind(input.keepRuleId);
      const other = rules.mustFind(otherId);
      const restored = input.keepRuleId === c.ruleA ? c.confidenceA : c.confidenceB;
      const kept = rules.patch(keep.id, { userConfirmed: true, confidence: Math.max(keep.confidence, restored) });
      learning.history.add({ ruleId: keep.id, projectId: keep.projectId, action: 'resolved', actor: 'user', before: snapshot(keep), after: snapshot(kept), episodes: [], distillId: null });
      const gone = rules.patch(other.id, { status: 'deleted' });
      negateSupport(other);
      learning.history.add({ ruleId: other.id, projectId: other.projectId, action: 'deleted', actor: 'user', before: snapshot(other), after: snapshot(gone), episodes: other.supporting, distillId: null });
      learning.conflicts.resolve(c.id, keep.id);
      // Any other conflict the deleted rule was in is settled by its going.
      learning.conflicts.closeForRule(other.id);
      const { order: _order, ...plain } = rules.mustFind(kept.id);
      return { kept: plain, deleted: other.id };
    },

    negateSupport,
  };
}

export type ConflictService = ReturnType<typeof createConflictService>;
