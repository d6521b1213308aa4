import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { distill } from './distill';
import { phrasedRules, phrasingMessages } from './phrasing';
import { evidence, LONG, SHORT } from './testing';

const plan = distill({
  episodes: [
    ...Array.from({ length: 8 }, (_, i) => evidence({ id: `a${i}`, candidates: [LONG, SHORT], selectedIndex: 1, at: 0 })),
    ...Array.from({ length: 8 }, (_, i) => evidence({ id: `d${i}`, sceneType: 'dialogue', candidates: [SHORT, LONG], selectedIndex: 1, at: 0 })),
  ],
  rules: [],
  now: 1,
});
const project = plan.proposals.filter((p) => p.scope === 'project');

describe('phrasing by a model, validated', () => {
  it('sends every pattern with its statistics and examples, never more than excerpts', () => {
    const [system, user] = phrasingMessages(project, [{ key: project[0]?.key ?? '', kept: ['字'.repeat(400)], rejected: [] }]);
    expect(system?.content).toContain('JSON');
    for (const p of project) expect(user?.content).toContain(p.key);
    expect(user?.content).toContain(`${'字'.repeat(160)}…`);
    expect(user?.content).not.toContain('字'.repeat(161));
  });

  it('keeps rules over offered keys of one group, each key once; drops the rest', () => {
    const [a, b] = project;
    const out = phrasedRules(
      {
        rules: [
          { basedOn: [a?.key], rule: '动作场景：短句，快节奏 · action: short, fast', category: 'pacing' },
          { basedOn: [a?.key], rule: 'again', category: 'pacing' },
          { basedOn: ['scene.action.made-up'], rule: 'invented', category: 'style' },
          { basedOn: [a?.key, b?.key], rule: 'two groups', category: 'style' },
        ],
      },
      project,
    );
    expect(out.rules).toEqual([{ keys: [a?.key], rule: '动作场景：短句，快节奏 · action: short, fast', category: 'pacing' }]);
    expect(out.dropped).toBe(3);
  });

  it('an answer that is not the agreed JSON throws (the distillation fails and retries later)', () => {
    expect(() => phrasedRules({ text: 'sure! here are your rules' }, project)).toThrow(ZodError);
    expect(() => phrasedRules({ rules: [{ basedOn: [], rule: 'x', category: 'style' }] }, project)).toThrow(ZodError);
  });
});
