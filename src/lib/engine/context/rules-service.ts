/**
 * The memory panel's semantic rules (seed 003 memory:semantic:* and memory:promote). Every change shows
 * in the next run's L2; docs/design/02-kv-cache-optimization.md lists what each costs the prefix cache.
 *
 *   add      user rule: confidence 1.0, confirmed              update   text edit → userModified, version + 1
 *   confirm  userConfirmed: learning never overwrites it       delete   status 'deleted': the key is remembered
 *   promote  project → global (003 "提升为全局")
 *
 * Every change is in the learning history (003 "查看学习历史"); a deleted learned rule's supporting
 * episodes are marked negative for its pattern; adding, editing or promoting a rule looks for a direct
 * contradiction with the rules already there (003 记忆冲突检测).
 */
import { EngineError } from '../../domain/errors';
import type { ContextDeps } from './deps';
import type { RuleCategory, SemanticRule } from './types';
import { createConflictService } from '../semantic/conflict-service';
import type { RuleChange } from '../semantic/types';

const strip = ({ order: _order, ...rule }: SemanticRule & { order: number }): SemanticRule => rule;
const snap = (r: Pick<SemanticRule, 'rule' | 'confidence' | 'version'>) => ({ rule: r.rule, confidence: r.confidence, version: r.version });

export function createRulesService(deps: ContextDeps) {
  const { rules } = deps;
  const conflicts = createConflictService(deps);
  const history = (action: RuleChange['action'], before: SemanticRule | null, after: SemanticRule, episodes: string[] = []) =>
    deps.learning.history.add({ ruleId: after.id, projectId: after.projectId, action, actor: 'user', before: before && snap(before), after: snap(after), episodes, distillId: null });
  const conflict = () =>
    new EngineError('CONFLICT', 'A rule with that `key` already exists in this scope; edit or delete it first.', { field: 'key' });

  return {
    list: (opts: { scope?: 'global' | 'project'; projectId?: string; includeDeleted: boolean }): SemanticRule[] => rules.list(opts).map(strip),
    add(input: { rule: string; category: RuleCategory; scope: 'global' | 'project'; projectId?: string; key?: string }): SemanticRule {
      if (input.scope === 'project' && !input.projectId) {
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `projectId`: a project rule names its project', { fields: ['projectId'] });
      }
      if (input.scope === 'global' && input.projectId) {
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `projectId`: a global rule belongs to no project', { fields: ['projectId'] });
      }
      const projectId = input.projectId ?? null;
      if (projectId) deps.projects.mustFind(projectId, 'projectId');
      const key = input.key ?? null;
      if (rules.keyTaken(input.scope, projectId, key)) throw conflict();
      const added = rules.insert({ rule: input.rule, category: input.category, scope: input.scope, projectId, key, confidence: 1, source: 'user', userConfirmed: true });
      history('added', null, added);
      conflicts.detect();
      return strip(rules.mustFind(added.id));
    },
    update(input: { id: string; rule?: string; category?: RuleCategory }): SemanticRule {
      const before = rules.mustFind(input.id);
      const textChanged = input.rule !== undefined && input.rule !== before.rule;
      if (!textChanged && (input.category === undefined || input.category === before.category)) return strip(before);
      const after = rules.patch(input.id, {
        ...(input.rule === undefined ? {} : { rule: input.rule }),
        ...(input.category === undefined ? {} : { category: input.category }),
        ...(textChanged ? { userModified: true } : {}),
      });
      history('edited', before, after);
      if (textChanged) conflicts.detect();
      return strip(rules.mustFind(after.id));
    },
    confirm(id: string): SemanticRule {
      const before = rules.mustFind(id);
      if (before.userConfirmed) return strip(before);
      const after = rules.patch(id, { userConfirmed: true });
      history('confirmed', before, after);
      return strip(after);
    },
    /** 003 "后续蒸馏不会重新生成该规则": the row stays as `deleted`, so learning sees its key. */
    delete(id: string): { deleted: true; id: string } {
      const before = rules.mustFind(id);
      const after = rules.patch(id, { status: 'deleted' });
      conflicts.negateSupport(before);
      deps.learning.conflicts.closeForRule(id);
      history('deleted', before, after, before.supporting);
      return { deleted: true, id };
    },
    promote(id: string): SemanticRule {
      const before = rules.mustFind(id);
      if (before.scope === 'global') throw new EngineError('CONFLICT', 'That rule (`id`) is already global.', { field: 'id' });
      if (rules.keyTaken('global', null, before.key)) throw conflict();
      const after = rules.patch(id, { scope: 'global', projectId: null });
      history('promoted', before, after);
      conflicts.detect();
      return strip(rules.mustFind(after.id));
    },
    conflicts,
  };
}

export type RulesService = ReturnType<typeof createRulesService>;
