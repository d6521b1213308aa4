import type { Episode } from '../../../engine/episodes/types';
import type { JobProgress } from '../../../engine/jobs/types';
import type { SemanticRule } from '../../../engine/context/types';
import type { DistillStatus, ProjectClearReport, RuleChange, RuleConflict } from '../../../engine/semantic/types';
import type { RuleScope } from './rules-view';
import { dataOr, type StateDeps } from './state-deps';

/** How the panel reaches the jobs worker: run a job now, and its last reported progress. */
export interface JobsPort {
  run(name: string): Promise<JobProgress>;
  progress(name: string): JobProgress | undefined;
}

export interface OpenConflict {
  conflict: RuleConflict;
  a: SemanticRule;
  b: SemanticRule;
}

export const HISTORY_PAGE = 30;

/**
 * The learning half of the memory panel (seed 003 "记忆面板"): pause / resume, "update preferences" with
 * the jobs worker's progress, conflicts to settle, the learning history with its episodes, the footer's
 * interaction count, and clearing one project's memory. Reads the scope the rules list shows.
 */
export class LearningState {
  status = $state.raw<DistillStatus | null>(null);
  conflicts = $state.raw<OpenConflict[]>([]);
  /** Interactions (episodes) recorded in the scope shown. */
  episodeCount = $state(0);
  history = $state.raw<RuleChange[]>([]);
  historyTotal = $state(0);
  historyOpen = $state(false);
  /** The episodes of history entries the user opened, by id. */
  episodes = $state.raw<Record<string, Episode>>({});
  /** The last "update preferences" outcome, for the panel's status line. */
  lastUpdate = $state.raw<JobProgress | null>(null);
  updating = $state(false);

  #deps: StateDeps;
  #jobs: JobsPort | null;
  #scope: () => RuleScope;
  #seq = 0;
  /** How many history entries a "more" still reading will show: a load meanwhile (a change event) reads that many. */
  #historyWanted = 0;

  constructor(deps: StateDeps & { jobs?: JobsPort }, scope: () => RuleScope) {
    this.#deps = deps;
    this.#jobs = deps.jobs ?? null;
    this.#scope = scope;
  }

  get paused(): boolean {
    return this.status?.paused ?? false;
  }

  /** The jobs worker's live progress of a distillation (any tab's button or trigger). */
  get progress(): JobProgress | undefined {
    return this.#jobs?.progress('distill');
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    const scope = this.#scope();
    const projectId = scope.scope === 'project' ? scope.projectId : null;
    const engine = this.#deps.engine();
    const [status, conflicts, rules, count] = await Promise.all([
      engine.call('distill.status', {}),
      engine.call('rules.conflicts', { projectId }),
      engine.call('rules.list', projectId ? { projectId } : {}),
      engine.call('episode.list', { projectId: projectId ?? undefined, limit: 1 }),
    ]);
    if (seq !== this.#seq) return;
    const s = dataOr(this.#deps, status, 'distill.status');
    if (s) this.status = s;
    const byId = new Map((dataOr(this.#deps, rules, 'rules.list') ?? []).map((r) => [r.id, r]));
    this.conflicts = (dataOr(this.#deps, conflicts, 'rules.conflicts') ?? []).flatMap((c) => {
      const a = byId.get(c.ruleA);
      const b = byId.get(c.ruleB);
      return a && b ? [{ conflict: c, a, b }] : [];
    });
    this.episodeCount = dataOr(this.#deps, count, 'episode.list')?.total ?? 0;
    if (this.historyOpen) await this.#loadHistory(seq, Math.max(HISTORY_PAGE, this.history.length, this.#historyWanted));
  }

  /** 003 "暂停学习" / "恢复学习": episodes are still recorded; distillation is frozen while paused. */
  async setPaused(paused: boolean): Promise<boolean> {
    const res = await this.#deps.engine().call('settings.update', { patch: { 'preferences.learning': !paused } });
    if (!res.ok) {
      this.#deps.onError(res.error, 'settings.update');
      return false;
    }
    await this.load();
    return true;
  }

  /** 003 "更新偏好" (memory:semantic:distill): a distillation now, in the jobs worker. */
  async updatePreferences(): Promise<JobProgress | null> {
    if (!this.#jobs || this.updating) return null;
    this.updating = true;
    try {
      const out = await this.#jobs.run('distill');
      this.lastUpdate = out;
      return out;
    } finally {
      this.updating = false;
      await this.load();
    }
  }

  /** 003 "当用户选择「偏好短句」": the kept rule is confirmed, the other deleted. */
  async resolve(conflictId: string, keepRuleId: string): Promise<boolean> {
    const res = await this.#deps.engine().call('rules.resolveConflict', { conflictId, keepRuleId });
    if (!res.ok) {
      this.#deps.onError(res.error, 'rules.resolveConflict');
      return false;
    }
    await this.load();
    return true;
  }

  async toggleHistory(): Promise<void> {
    this.historyOpen = !this.historyOpen;
    this.#historyWanted = 0;
    if (this.historyOpen) await this.#loadHistory(++this.#seq, HISTORY_PAGE);
  }

  async moreHistory(): Promise<void> {
    this.#historyWanted = this.history.length + HISTORY_PAGE;
    await this.#loadHistory(++this.#seq, this.#historyWanted);
  }

  /** The interactions a history entry came from (those still stored). */
  async loadEpisodes(ids: readonly string[]): Promise<void> {
    const missing = ids.filter((id) => !this.episodes[id]).slice(0, 100);
    if (missing.length === 0) return;
    const res = await this.#deps.engine().call('episode.getMany', { ids: missing });
    const found = dataOr(this.#deps, res, 'episode.getMany');
    if (found) this.episodes = { ...this.episodes, ...Object.fromEntries(found.map((e) => [e.id, e])) };
  }

  /** 003 "清除本项目记忆" (after the dialog's confirmation). */
  async clearProject(projectId: string): Promise<ProjectClearReport | null> {
    const res = await this.#deps.engine().call('memory.clearProject', { projectId, confirm: true });
    if (!res.ok) {
      this.#deps.onError(res.error, 'memory.clearProject');
      return null;
    }
    this.history = [];
    await this.load();
    return res.data;
  }

  async #loadHistory(seq: number, limit: number): Promise<void> {
    const scope = this.#scope();
    const res = await this.#deps.engine().call('rules.history', { projectId: scope.scope === 'project' ? scope.projectId : null, limit: Math.min(200, limit) });
    if (seq !== this.#seq) return;
    this.#historyWanted = 0;
    const page = dataOr(this.#deps, res, 'rules.history');
    if (!page) return;
    this.history = page.items;
    this.historyTotal = page.total;
  }
}
