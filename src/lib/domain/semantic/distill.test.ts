import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../clock';
import { distill, parsePattern, type ExistingRule } from './distill';
import { tally, wilsonLower } from './stats';
import { evidence, LONG, SHORT } from './testing';
import { episodeVotes } from './votes';

const NOW = 100 * DAY_MS;

describe('votes: what one episode says', () => {
  it('choosing the short candidate over a long one votes short; undoing that choice votes long, with the highest weight', () => {
    const chose = episodeVotes(evidence({ candidates: [LONG, SHORT], selectedIndex: 1 }));
    expect(chose.filter((v) => v.hypothesis === 'sentence-length').map((v) => v.pole)).toEqual(['short', 'short']);
    const undone = episodeVotes(evidence({ candidates: [LONG, SHORT], selectedIndex: 1, signal: 'delayed-negative' }));
    const sl = undone.filter((v) => v.hypothesis === 'sentence-length');
    expect(sl.map((v) => v.pole)).toEqual(['long', 'long']);
    expect(sl.every((v) => v.weight === 1)).toBe(true);
  });

  it('reads the edit: shortening a long output votes short even when the rewrite is a weak negative', () => {
    const v = episodeVotes(evidence({ candidates: [LONG], selectedIndex: 0, finalText: SHORT }));
    expect(v.find((x) => x.hypothesis === 'sentence-length' && x.weight === 0.5)?.pole).toBe('short');
  });

  it('a rejected output with "!" blames the "!", one without says nothing about it', () => {
    expect(episodeVotes(evidence({ candidates: ['快跑！他们来了！别回头！'], selectedIndex: -1 })).find((v) => v.hypothesis === 'exclamation')?.pole).toBe('avoid');
    expect(episodeVotes(evidence({ candidates: ['他们来了。我们走吧。'], selectedIndex: -1 })).some((v) => v.hypothesis === 'exclamation')).toBe(false);
  });
});

describe('the statistical test', () => {
  it('confidence is the one-sided 95 % Wilson lower bound of the weighted share', () => {
    expect(wilsonLower(1, 35)).toBeCloseTo(0.928, 3);
    expect(wilsonLower(0.5, 100)).toBeLessThan(0.5);
    const t = tally([...Array.from({ length: 9 }, (_, i) => ({ pole: 'a', weight: 1, episodeId: `a${i}` })), { pole: 'b', weight: 1, episodeId: 'b' }]);
    expect(t).toMatchObject({ pole: 'a', votes: 10, effective: 10, significant: true });
    expect(t.confidence).toBe(Math.round(wilsonLower(0.9, 10) * 100) / 100);
  });

  it('needs enough votes: four unanimous votes are not a preference yet', () => {
    expect(tally(Array.from({ length: 4 }, (_, i) => ({ pole: 'a', weight: 1, episodeId: `${i}` }))).significant).toBe(false);
  });
});

describe('distill', () => {
  const action = (i: number, at = NOW - DAY_MS) => evidence({ id: `s${i}`, candidates: [LONG, SHORT, LONG], selectedIndex: 1, at });

  it('groups by scene type and keeps the broadest group that says it', () => {
    const plan = distill({ episodes: Array.from({ length: 8 }, (_, i) => action(i)), rules: [], now: NOW });
    const keys = plan.proposals.filter((p) => p.scope === 'project').map((p) => p.key);
    // Every episode is an action scene and a continue run: the broadest group (all) says it once.
    expect(keys).toContain('all.sentence-length');
    expect(keys).not.toContain('scene.action.sentence-length');
    const p = plan.proposals.find((x) => x.key === 'all.sentence-length' && x.scope === 'project');
    expect(p).toMatchObject({ pole: 'short', change: 'create', category: 'pacing', window: 'recent' });
    expect(p?.text).toMatch(/^偏好短句（平均 < 5 字） · short sentences \(under 5 characters on average\)$/);
  });

  it('a narrower group gets its own rule where it differs', () => {
    const dialogue = (i: number) => evidence({ id: `d${i}`, sceneType: 'dialogue', candidates: [SHORT, LONG], selectedIndex: 1, at: NOW - DAY_MS });
    const plan = distill({ episodes: [...Array.from({ length: 12 }, (_, i) => action(i)), ...Array.from({ length: 8 }, (_, i) => dialogue(i))], rules: [], now: NOW });
    const project = plan.proposals.filter((p) => p.scope === 'project');
    expect(project.find((p) => p.key === 'scene.dialogue.sentence-length')?.pole).toBe('long');
    expect(project.find((p) => p.key === 'scene.action.sentence-length')?.pole).toBe('short');
  });

  it('the last 30 days win over older evidence, and an existing rule drifts', () => {
    const old = Array.from({ length: 20 }, (_, i) => evidence({ id: `o${i}`, candidates: [SHORT, LONG], selectedIndex: 1, at: NOW - 60 * DAY_MS }));
    const recent = Array.from({ length: 8 }, (_, i) => action(i));
    const rule: ExistingRule = {
      id: 'r-1', scope: 'project', projectId: 'p-1', key: 'all.sentence-length', source: 'learned', status: 'active',
      userConfirmed: false, userModified: false, confidence: 0.8, penalty: 0, basis: [{ pattern: 'all.sentence-length', pole: 'long' }],
    };
    const plan = distill({ episodes: [...old, ...recent], rules: [rule], now: NOW });
    expect(plan.proposals.find((p) => p.key === 'all.sentence-length' && p.scope === 'project')).toMatchObject({ change: 'drift', pole: 'short', window: 'recent', ruleId: 'r-1' });
  });

  it('never proposes a deleted or a confirmed key, and subtracts a verdict penalty', () => {
    const episodes = Array.from({ length: 8 }, (_, i) => action(i));
    const base = { scope: 'project' as const, projectId: 'p-1', key: 'all.sentence-length', source: 'learned' as const, userModified: false, confidence: 0.9, basis: [{ pattern: 'all.sentence-length', pole: 'short' }] };
    const none = (r: Partial<ExistingRule>) => distill({ episodes, rules: [{ id: 'r', status: 'active', userConfirmed: false, penalty: 0, ...base, ...r }], now: NOW }).proposals.filter((p) => p.key === 'all.sentence-length' && p.scope === 'project');
    expect(none({ status: 'deleted' })).toEqual([]);
    expect(none({ userConfirmed: true })).toEqual([]);
    const fresh = distill({ episodes, rules: [], now: NOW }).proposals.find((p) => p.key === 'all.sentence-length' && p.scope === 'project')?.confidence ?? 0;
    expect(none({ penalty: 0.2 })[0]?.confidence).toBeCloseTo(fresh - 0.2, 2);
  });

  it('a global rule needs evidence from two projects', () => {
    const one = distill({ episodes: Array.from({ length: 8 }, (_, i) => action(i)), rules: [], now: NOW });
    expect(one.proposals.some((p) => p.scope === 'global')).toBe(false);
    const two = distill({
      episodes: [...Array.from({ length: 6 }, (_, i) => action(i)), ...Array.from({ length: 6 }, (_, i) => evidence({ id: `q${i}`, projectId: 'p-2', candidates: [LONG, SHORT], selectedIndex: 1, at: NOW - DAY_MS }))],
      rules: [],
      now: NOW,
    });
    expect(two.proposals.find((p) => p.scope === 'global' && p.key === 'all.sentence-length')?.pole).toBe('short');
  });

  it('an episode marked negative by a deleted rule votes against that rule’s pattern', () => {
    const negated = [{ pattern: 'all.sentence-length', pole: 'short' }];
    const plan = distill({ episodes: Array.from({ length: 8 }, (_, i) => evidence({ id: `n${i}`, candidates: [LONG, SHORT], selectedIndex: 1, at: NOW - DAY_MS, negated })), rules: [], now: NOW });
    expect(plan.proposals.find((p) => p.key === 'all.sentence-length')?.pole).not.toBe('short');
  });

  it('is deterministic and reports progress per scope', () => {
    const episodes = Array.from({ length: 8 }, (_, i) => action(i));
    const seen: number[] = [];
    const a = distill({ episodes, rules: [], now: NOW, onScope: (d) => seen.push(d) });
    expect(distill({ episodes, rules: [], now: NOW })).toEqual(a);
    expect(seen).toEqual([1, 2]);
  });

  it('pattern keys parse back into their group', () => {
    expect(parsePattern('scene.action.skill.continue.sentence-length')).toEqual({ group: { scene: 'action', skill: 'continue' }, hypothesis: 'sentence-length' });
    expect(parsePattern('skill.polish.length')).toEqual({ group: { scene: null, skill: 'polish' }, hypothesis: 'length' });
    expect(parsePattern('scene.nonsense.length')).toBeNull();
  });
});
