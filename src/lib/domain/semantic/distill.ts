/**
 * Distillation, the pure part (seed 003 "语义记忆蒸馏"): episodes → significant patterns → rule proposals.
 * Runs in the jobs worker over a snapshot of the episodes; the engine applies the plan (apply-plan, one
 * transaction) against the rules as they are then.
 *
 *   episodes ─▶ per scope (each project; global = all, if ≥ 2 projects support it)
 *     ─▶ groups: all · scene · skill · scene+skill          (003 "聚类分析（按场景类型、技能类型分组）")
 *     ─▶ votes per hypothesis (votes.ts), netted to one per episode ─▶ tally: Wilson lower bound (stats.ts)   (模式提取)
 *     ─▶ the last 30 days first: when they are significant they decide            (时间迁移: 以近 30 天为准)
 *     ─▶ a group's rule only where it says more than a broader group's rule
 *     ─▶ proposals: create · update · drift (the pole changed) — each with its template text (自然语言规则生成)
 *
 * Rules the user deleted (their key) or confirmed are never proposed; a user-edited rule keeps its text.
 * The penalty of "判断有误" verdicts is subtracted from every recomputed confidence, so it stays lowered.
 */
import { DAY_MS } from '../clock';
import type { SceneType } from '../episodes/scene-type';
import { SCENE_TYPES } from '../episodes/scene-type';
import { HYPOTHESES, HYPOTHESIS, opposite, type HypothesisId, type RuleCategory } from './hypotheses';
import { tally, wilsonLower, type Tally, type Vote } from './stats';
import { groupKey, templateRule, type Group, type PoleDetail } from './templates';
import { episodeVotes, type EpisodeEvidence } from './votes';

/** 003 time drift: "以近 30 天情景为准". */
export const RECENT_MS = 30 * DAY_MS;
export const VERDICT_WEIGHT = 0.8;
/** A negated episode's vote counts against the pattern with this weight at least. */
export const NEGATED_WEIGHT = 0.8;

export type PatternHypothesis = HypothesisId | 'skill-choice';

export interface BasisEntry {
  pattern: string;
  pole: string;
}

/** A rule as distillation sees it in the snapshot. */
export interface ExistingRule {
  id: string;
  scope: 'global' | 'project';
  projectId: string | null;
  key: string | null;
  source: 'user' | 'learned';
  status: 'active' | 'deleted';
  userConfirmed: boolean;
  userModified: boolean;
  confidence: number;
  penalty: number;
  basis: BasisEntry[];
}

export interface RuleProposal {
  scope: 'global' | 'project';
  projectId: string | null;
  key: string;
  group: Group;
  hypothesis: PatternHypothesis;
  pole: string;
  category: RuleCategory;
  confidence: number;
  supporting: string[];
  contradicting: string[];
  window: 'all' | 'recent';
  change: 'create' | 'update' | 'drift';
  /** The rule being updated (update, drift). */
  ruleId: string | null;
  detail: PoleDetail;
  /** The statistics' own wording; a model may phrase it better (phrasing.ts). */
  text: string;
  stats: Pick<Tally, 'votes' | 'effective' | 'forWeight' | 'againstWeight'>;
}

/** A learned rule no proposal covers (weakened evidence, or a merged rule): its recomputed numbers. */
export interface RuleRefresh {
  ruleId: string;
  confidence: number;
  supporting: string[];
  contradicting: string[];
}

export interface DistillPlan {
  proposals: RuleProposal[];
  refresh: RuleRefresh[];
  stats: { episodes: number; scopes: number; patterns: number; significant: number };
}

type PatternVotes = Map<string, { group: Group; hypothesis: PatternHypothesis; all: Vote[]; recent: Vote[]; kept: Map<string, { sentence: number; cjk: number }> }>;

const SKILL_CHOICE_WEIGHT = 0.2;

function groupsOf(e: EpisodeEvidence): Group[] {
  return [
    { scene: null, skill: null },
    { scene: e.sceneType, skill: null },
    { scene: null, skill: e.skillId },
    { scene: e.sceneType, skill: e.skillId },
  ];
}

/** Every vote of every episode, by pattern key (`<group>.<hypothesis>`). */
function collect(episodes: readonly EpisodeEvidence[], now: number): PatternVotes {
  const out: PatternVotes = new Map();
  const slot = (group: Group, hypothesis: PatternHypothesis) => {
    const key = `${groupKey(group)}.${hypothesis}`;
    let s = out.get(key);
    if (!s) out.set(key, (s = { group, hypothesis, all: [], recent: [], kept: new Map() }));
    return s;
  };
  for (const e of episodes) {
    const recent = now - e.createdAt <= RECENT_MS;
    const add = (group: Group, hypothesis: PatternHypothesis, pole: string, weight: number) => {
      const s = slot(group, hypothesis);
      const key = `${groupKey(group)}.${hypothesis}`;
      const negated = e.negated.find((n) => n.pattern === key);
      // A deleted rule's evidence: what voted for its pole now votes against it.
      const v: Vote = negated && negated.pole === pole ? { pole: oppositeOf(hypothesis, pole), weight: Math.max(weight, NEGATED_WEIGHT), episodeId: e.id } : { pole, weight, episodeId: e.id };
      s.all.push(v);
      if (recent) s.recent.push(v);
    };
    if (e.kind === 'verdict') {
      for (const n of e.negated) {
        const parsed = parsePattern(n.pattern);
        if (parsed) {
          const s = slot(parsed.group, parsed.hypothesis);
          const v: Vote = { pole: oppositeOf(parsed.hypothesis, n.pole), weight: VERDICT_WEIGHT, episodeId: e.id };
          s.all.push(v);
          if (recent) s.recent.push(v);
        }
      }
      continue;
    }
    // 003 "用户反复对同类场景使用同一技能": each use a low-weight vote for the skill in the scene's group.
    const uses = e.kind === 'session' ? e.uses : 1;
    add({ scene: e.sceneType, skill: null }, 'skill-choice', e.skillId, Math.min(0.8, SKILL_CHOICE_WEIGHT * uses));
    const kept = e.features.final ?? e.features.candidates[e.selectedIndex];
    // One vote per episode and hypothesis: the episode is the independent unit of evidence, so its votes
    // are netted (pole with the larger sum, weight = the difference, at most 1 — the highest signal).
    const net = new Map<string, Map<string, number>>();
    for (const v of episodeVotes(e)) {
      const poles = net.get(v.hypothesis) ?? new Map<string, number>();
      poles.set(v.pole, (poles.get(v.pole) ?? 0) + v.weight);
      net.set(v.hypothesis, poles);
    }
    for (const [hypothesis, poles] of net) {
      const ranked = [...poles.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      const [top, second] = ranked;
      if (!top) continue;
      const weight = Math.min(1, Math.round((top[1] - (second?.[1] ?? 0)) * 1000) / 1000);
      if (weight <= 0) continue;
      for (const g of groupsOf(e)) {
        add(g, hypothesis as HypothesisId, top[0], weight);
        if (kept && hypothesis === 'sentence-length' && e.valence > 0) slot(g, 'sentence-length').kept.set(e.id, { sentence: kept.sentence, cjk: kept.cjk });
      }
    }
  }
  return out;
}

function oppositeOf(h: PatternHypothesis, pole: string): string {
  return h === 'skill-choice' ? `not:${pole}` : opposite(HYPOTHESIS[h], pole);
}

const SCENES = new Set<string>(SCENE_TYPES);

/** `<group>.<hypothesis>` → its parts; null for keys distillation did not make. */
export function parsePattern(key: string): { group: Group; hypothesis: PatternHypothesis } | null {
  const m = /^(all|scene\.([a-z]+)(?:\.skill\.([a-z][a-z0-9-]*))?|skill\.([a-z][a-z0-9-]*))\.([a-z-]+)$/.exec(key);
  if (!m) return null;
  const scene = m[2] ?? null;
  if (scene !== null && !SCENES.has(scene)) return null;
  const hypothesis = m[5] as string;
  if (hypothesis !== 'skill-choice' && !(HYPOTHESES as readonly string[]).includes(hypothesis)) return null;
  return { group: { scene: scene as SceneType | null, skill: m[3] ?? m[4] ?? null }, hypothesis: hypothesis as PatternHypothesis };
}

/** The broader groups whose rule would already say what this group's says. */
function ancestors(g: Group): Group[] {
  const out: Group[] = [];
  if (g.scene && g.skill) out.push({ scene: g.scene, skill: null }, { scene: null, skill: g.skill });
  if (g.scene || g.skill) out.push({ scene: null, skill: null });
  return out;
}

function detailOf(pole: string, kept: Map<string, { sentence: number; cjk: number }>, supporting: readonly string[]): PoleDetail {
  const rows = supporting.map((id) => kept.get(id)).filter((r): r is { sentence: number; cjk: number } => r !== undefined);
  if (rows.length === 0) return {};
  const mean = rows.reduce((s, r) => s + r.sentence, 0) / rows.length;
  const cjk = rows.reduce((s, r) => s + r.cjk, 0) / rows.length;
  // Rounded to 5 so the rule's text (and the prompt prefix) does not move with every new episode.
  const threshold = pole === 'short' ? Math.max(5, Math.ceil((mean + 0.01) / 5) * 5) : Math.max(5, Math.floor(mean / 5) * 5);
  return { threshold, unit: cjk >= 0.5 ? 'zh' : 'en' };
}

/** The confidence of one given pole over these votes (for a rule whose pole the evidence no longer favours). */
function confidenceOf(votes: readonly Vote[], pole: string): number {
  const used = votes.filter((v) => v.weight > 0);
  const sum = used.reduce((s, v) => s + v.weight, 0);
  const sumSq = used.reduce((s, v) => s + v.weight * v.weight, 0);
  if (sum === 0) return 0;
  const share = used.filter((v) => v.pole === pole).reduce((s, v) => s + v.weight, 0) / sum;
  return Math.round(wilsonLower(share, (sum * sum) / sumSq) * 100) / 100;
}

const clamp01 = (x: number) => Math.max(0, Math.min(1, Math.round(x * 100) / 100));

interface ScopeRef {
  scope: 'global' | 'project';
  projectId: string | null;
}

function distillScope(opts: { scope: ScopeRef; episodes: readonly EpisodeEvidence[]; rules: readonly ExistingRule[]; now: number }): {
  proposals: RuleProposal[];
  refresh: RuleRefresh[];
  patterns: number;
  significant: number;
} {
  const { scope, now } = opts;
  const votes = collect(opts.episodes, now);
  const projectOf = new Map(opts.episodes.map((e) => [e.id, e.projectId ?? '']));
  const inScope = opts.rules.filter((r) => r.scope === scope.scope && (r.projectId ?? null) === scope.projectId);
  const byKey = (key: string) => inScope.find((r) => r.key === key && r.status === 'active') ?? inScope.find((r) => r.key === key);

  // What each pattern's evidence says: the last 30 days when they are significant, else all of it.
  const decided = new Map<string, { t: Tally; window: 'all' | 'recent' }>();
  let significant = 0;
  for (const [key, v] of votes) {
    const recent = tally(v.recent);
    const all = tally(v.all);
    let pick: { t: Tally; window: 'all' | 'recent' } | null = null;
    if (recent.significant) pick = { t: recent, window: 'recent' };
    else if (all.significant) pick = { t: all, window: 'all' };
    // Global rules generalise across projects: the evidence must come from at least two.
    if (pick && scope.scope === 'global' && new Set(pick.t.supporting.map((id) => projectOf.get(id))).size < 2) pick = null;
    if (pick) {
      significant++;
      decided.set(key, pick);
    }
  }

  const proposals: RuleProposal[] = [];
  for (const [key, d] of decided) {
    const v = votes.get(key);
    const pole = d.t.pole;
    if (!v || pole === null) continue;
    // Said already by a broader group's rule with the same answer.
    if (ancestors(v.group).some((g) => decided.get(`${groupKey(g)}.${v.hypothesis}`)?.t.pole === pole)) continue;
    const existing = byKey(key);
    if (existing && (existing.status === 'deleted' || existing.userConfirmed || existing.source === 'user')) continue;
    const hypothesis = v.hypothesis;
    if (hypothesis === 'skill-choice' && v.group.scene === null) continue;
    const previousPole = existing?.basis.find((b) => b.pattern === key)?.pole ?? null;
    const change: RuleProposal['change'] = !existing ? 'create' : previousPole !== null && previousPole !== pole ? 'drift' : 'update';
    const detail = hypothesis === 'sentence-length' ? detailOf(pole, v.kept, d.t.supporting) : {};
    proposals.push({
      ...scope,
      key,
      group: v.group,
      hypothesis,
      pole,
      category: hypothesis === 'skill-choice' ? 'structure' : HYPOTHESIS[hypothesis].category,
      confidence: clamp01(d.t.confidence - (existing?.penalty ?? 0)),
      supporting: d.t.supporting,
      contradicting: d.t.contradicting,
      window: d.window,
      change,
      ruleId: existing?.id ?? null,
      detail,
      text: templateRule({ group: v.group, hypothesis, pole, detail }),
      stats: { votes: d.t.votes, effective: d.t.effective, forWeight: d.t.forWeight, againstWeight: d.t.againstWeight },
    });
  }

  // Learned rules no proposal speaks for: their confidence follows the evidence for their own pole(s).
  const proposed = new Set(proposals.map((p) => p.ruleId));
  const refresh: RuleRefresh[] = [];
  for (const r of inScope) {
    if (r.status !== 'active' || r.source !== 'learned' || r.userConfirmed || proposed.has(r.id) || r.basis.length === 0) continue;
    const parts = r.basis.map((b) => ({ b, v: votes.get(b.pattern) }));
    if (parts.some((p) => !p.v || p.v.all.length === 0)) continue;
    const confidence = clamp01(Math.min(...parts.map((p) => confidenceOf(p.v?.all ?? [], p.b.pole))) - r.penalty);
    const supporting = [...new Set(parts.flatMap((p) => (p.v?.all ?? []).filter((x) => x.pole === p.b.pole).map((x) => x.episodeId)))];
    const contradicting = [...new Set(parts.flatMap((p) => (p.v?.all ?? []).filter((x) => x.pole !== p.b.pole).map((x) => x.episodeId)))];
    refresh.push({ ruleId: r.id, confidence, supporting, contradicting });
  }
  return { proposals, refresh, patterns: votes.size, significant };
}

/**
 * The plan for every scope. `onScope` reports progress (scopes done / scopes) — the job streams it to the
 * memory panel. Deterministic: the same snapshot and clock give the same plan.
 */
export function distill(opts: {
  episodes: readonly EpisodeEvidence[];
  rules: readonly ExistingRule[];
  now: number;
  onScope?: (done: number, total: number) => void;
}): DistillPlan {
  const projects = [...new Set(opts.episodes.map((e) => e.projectId).filter((p): p is string => p !== null))].sort();
  const scopes: { scope: ScopeRef; episodes: EpisodeEvidence[] }[] = [
    ...projects.map((p) => ({ scope: { scope: 'project' as const, projectId: p }, episodes: opts.episodes.filter((e) => e.projectId === p) })),
    { scope: { scope: 'global', projectId: null }, episodes: [...opts.episodes] },
  ];
  const plan: DistillPlan = { proposals: [], refresh: [], stats: { episodes: opts.episodes.length, scopes: scopes.length, patterns: 0, significant: 0 } };
  scopes.forEach((s, i) => {
    const out = distillScope({ scope: s.scope, episodes: s.episodes, rules: opts.rules, now: opts.now });
    plan.proposals.push(...out.proposals);
    plan.refresh.push(...out.refresh);
    plan.stats.patterns += out.patterns;
    plan.stats.significant += out.significant;
    opts.onScope?.(i + 1, scopes.length);
  });
  return plan;
}
