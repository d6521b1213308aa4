import type { Project, RuleCategory, SemanticRule } from '../../../engine/context/types';
import type { Input } from '../../../engine/protocol/contract';
import type { FormErrors } from './form-errors';
import type { RuleScope } from './rules-view';
import { dataOr, failedOutcome, type SaveOutcome, type StateDeps } from './state-deps';

/**
 * The Preferences tab (seed 003 "记忆面板", the L2 layer): the semantic rules of one scope, global or a
 * project, and what the person does with them. Every change shows in the next run's L2.
 */
export class RulesState {
  scope = $state.raw<RuleScope>({ scope: 'global' });
  projects = $state.raw<Project[]>([]);
  rules = $state.raw<SemanticRule[]>([]);
  loaded = $state(false);

  #deps: StateDeps;
  #seq = 0;

  constructor(deps: StateDeps) {
    this.#deps = deps;
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    const projects = dataOr(this.#deps, await this.#deps.engine().call('project.list', {}), 'project.list');
    if (seq !== this.#seq) return;
    if (projects) this.projects = projects;
    // A project deleted (here or in another tab) takes its scope with it.
    const scope = this.scope;
    if (projects && scope.scope === 'project' && !projects.some((p) => p.id === scope.projectId)) this.scope = { scope: 'global' };
    const input: Input<'rules.list'> = this.scope.scope === 'global' ? { scope: 'global' } : { scope: 'project', projectId: this.scope.projectId };
    const rules = dataOr(this.#deps, await this.#deps.engine().call('rules.list', input), 'rules.list');
    if (seq !== this.#seq || !rules) return;
    this.rules = rules;
    this.loaded = true;
  }

  async setScope(scope: RuleScope): Promise<void> {
    this.scope = scope;
    this.rules = [];
    this.loaded = false;
    await this.load();
  }

  /** 003 "手动添加规则": confidence 1.0, confirmed, in the scope shown. */
  async add(rule: string, category: RuleCategory): Promise<SaveOutcome> {
    const text = rule.trim();
    if (!text) return { kind: 'invalid', errors: { rule: { kind: 'required' } } satisfies FormErrors };
    const scope = this.scope;
    const input: Input<'rules.add'> =
      scope.scope === 'global' ? { rule: text, category, scope: 'global' } : { rule: text, category, scope: 'project', projectId: scope.projectId };
    return this.#write(await this.#deps.engine().call('rules.add', input), 'rules.add');
  }

  /** 003 "修改": a text edit marks the rule user-modified. */
  async update(id: string, rule: string, category: RuleCategory): Promise<SaveOutcome> {
    const text = rule.trim();
    if (!text) return { kind: 'invalid', errors: { rule: { kind: 'required' } } };
    const before = this.rules.find((r) => r.id === id);
    if (before && before.rule === text && before.category === category) return { kind: 'unchanged' };
    return this.#write(await this.#deps.engine().call('rules.update', { id, rule: text, category }), 'rules.update');
  }

  async confirm(id: string): Promise<boolean> {
    return (await this.#write(await this.#deps.engine().call('rules.confirm', { id }), 'rules.confirm')).kind === 'saved';
  }

  /** 003 "删除": the key is remembered, so learning never re-creates the rule. */
  async remove(id: string): Promise<boolean> {
    return (await this.#write(await this.#deps.engine().call('rules.delete', { id }), 'rules.delete')).kind === 'saved';
  }

  /** 003 "提升为全局": a project rule becomes global (it leaves the project's list). */
  async promote(id: string): Promise<boolean> {
    const res = await this.#deps.engine().call('rules.promote', { id });
    if (!res.ok && res.error.code === 'CONFLICT') {
      this.#deps.onError(res.error, 'rules.promote');
      return false;
    }
    return (await this.#write(res, 'rules.promote')).kind === 'saved';
  }

  async #write(res: { ok: true } | { ok: false; error: Parameters<StateDeps['onError']>[0] }, context: string): Promise<SaveOutcome> {
    if (!res.ok) return failedOutcome(this.#deps, res.error, context);
    await this.load();
    return { kind: 'saved' };
  }
}
