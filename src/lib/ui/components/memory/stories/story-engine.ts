import { DAY_MS as DAY } from '../../../../domain/clock';
import { fail, type IpcResponse } from '../../../../domain/errors';
import type { EngineCaller } from '../../../../engine/client/caller';
import type { Project, RuleCategory, SemanticRule } from '../../../../engine/context/types';
import type { DistillStatus, RuleConflict } from '../../../../engine/semantic/types';
import type { Input, Method } from '../../../../engine/protocol/contract';
import { LearningState } from '../learning-state.svelte';
import { RulesState } from '../rules-state.svelte';
import type { StateDeps } from '../state-deps';

/**
 * Storybook only: a fake engine that answers the memory panel's reads from a fixed fixture, so each story
 * shows one state of the Preferences tab (seed 003 "记忆面板") without a database, a worker or the network.
 * Pause / resume and settling a conflict change the fixture, so the buttons work as they do in the app;
 * any other call answers INTERNAL ("not in this story"); its code (never any text) goes to the console.
 */
export interface PanelFixture {
  projects?: Project[];
  rules?: SemanticRule[];
  conflicts?: RuleConflict[];
  paused?: boolean;
  /** Interactions recorded (the footer's count). */
  episodes?: number;
}

/** A fixed clock: the stories and their Playwright spec never depend on today's date. */
export const STORY_NOW = Date.UTC(2026, 0, 15, 9, 30);
export function storyRule(id: string, rule: string, category: RuleCategory, over: Partial<SemanticRule> = {}): SemanticRule {
  return {
    id,
    rule,
    category,
    scope: 'global',
    projectId: null,
    key: null,
    confidence: 0.8,
    supporting: [],
    contradicting: [],
    userConfirmed: false,
    userModified: false,
    source: 'learned',
    version: 1,
    status: 'active',
    createdAt: STORY_NOW - 20 * DAY,
    updatedAt: STORY_NOW - 3 * DAY,
    basis: [],
    penalty: 0,
    driftedAt: null,
    conflictId: null,
    ...over,
  };
}

function status(f: Required<PanelFixture>): DistillStatus {
  return {
    paused: f.paused,
    newEpisodes: 0,
    sinceLastRun: 0,
    totalEpisodes: f.episodes,
    due: null,
    running: null,
    lastRun: null,
    lastDone: null,
    openConflicts: f.conflicts.filter((c) => c.resolvedAt === null).length,
  };
}

const WRITES: readonly Method[] = ['settings.update', 'rules.resolveConflict'];

/** `onWrite` runs after each successful write, as the memory page reloads on every write's revision. */
export function storyEngine(fixture: PanelFixture, onWrite: () => void = () => {}): Pick<EngineCaller, 'call'> {
  const f: Required<PanelFixture> = { projects: [], rules: [], conflicts: [], paused: false, episodes: 0, ...fixture };
  const answer = (method: Method, input: unknown): IpcResponse<unknown> => {
    switch (method) {
      case 'project.list':
        return { ok: true, data: f.projects };
      case 'rules.list': {
        const q = input as Input<'rules.list'>;
        const active = f.rules.filter((r) => r.status === 'active');
        if (q.scope === 'global') return { ok: true, data: active.filter((r) => r.scope === 'global') };
        return { ok: true, data: q.projectId ? active.filter((r) => r.scope === 'global' || r.projectId === q.projectId) : active };
      }
      case 'rules.conflicts':
        return { ok: true, data: f.conflicts.filter((c) => c.resolvedAt === null) };
      case 'distill.status':
        return { ok: true, data: status(f) };
      case 'episode.list':
        return { ok: true, data: { items: [], total: f.episodes } };
      case 'rules.history':
        return { ok: true, data: { items: [], total: 0 } };
      case 'settings.update': {
        const learning = (input as { patch: Record<string, unknown> }).patch['preferences.learning'];
        if (typeof learning === 'boolean') f.paused = !learning;
        return { ok: true, data: {} };
      }
      case 'rules.resolveConflict': {
        const { conflictId, keepRuleId } = input as Input<'rules.resolveConflict'>;
        const conflict = f.conflicts.find((c) => c.id === conflictId && c.resolvedAt === null);
        if (!conflict) return fail('NOT_FOUND', 'No such open conflict.', { field: 'conflictId' });
        const deleted = conflict.ruleA === keepRuleId ? conflict.ruleB : conflict.ruleA;
        f.conflicts = f.conflicts.map((c) => (c === conflict ? { ...c, resolvedAt: STORY_NOW, keptRuleId: keepRuleId } : c));
        f.rules = f.rules.map((r) =>
          r.id === keepRuleId ? { ...r, userConfirmed: true, conflictId: null } : r.id === deleted ? { ...r, status: 'deleted' as const } : r,
        );
        const kept = f.rules.find((r) => r.id === keepRuleId);
        return kept ? { ok: true, data: { kept, deleted } } : fail('NOT_FOUND', 'No such rule.', { field: 'keepRuleId' });
      }
      default:
        return fail('INTERNAL', `${method} is not part of this story.`);
    }
  };
  return {
    async call(method, input) {
      const res = answer(method, input);
      if (res.ok && WRITES.includes(method)) queueMicrotask(onWrite);
      return res as IpcResponse<never>;
    },
  };
}

/** The two states the panel renders, loaded from the fixture the way the memory page loads them. */
export async function storyPanel(fixture: PanelFixture): Promise<{ state: RulesState; learning: LearningState; now: number }> {
  // The page's reload after a write (routes/memory/+page.svelte): the rules, then the learning half.
  const engine = storyEngine(fixture, () => void state.load().then(() => learning.load()));
  const deps: StateDeps = { engine: () => engine, onError: (error, context) => console.warn(`story engine: ${context} → ${error.code}`) };
  const state = new RulesState(deps);
  const learning = new LearningState(deps, () => state.scope);
  await state.load();
  await learning.load();
  return { state, learning, now: STORY_NOW };
}
