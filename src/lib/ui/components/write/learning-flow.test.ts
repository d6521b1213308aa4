import { describe, expect, it } from 'vitest';
import { testJobs } from '../../../engine/jobs/testing';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { InspectState } from '../inspect/inspect-state.svelte';
import { scriptedProvider, testWriteDeps } from './testing';
import { WriteState } from './write-state.svelte';

const PARAGRAPHS = ['The old house stood at the end of a long and winding road, its windows dark and its garden overgrown.', 'Nobody had lived there for years.'];

/** A writer who always accepts the model's shorter polish: episodes → distillation → a learned rule. */
async function writerWhoLikesShortPolish() {
  const t = await createTestEngine();
  const provider = scriptedProvider({ reply: () => 'The old house stood at the road’s end.' });
  const { deps } = testWriteDeps({ engine: t.engine, now: () => t.clock.now(), provider });
  const w = new WriteState(deps);
  const jobs = testJobs({ engine: t.engine, clock: t.clock });
  await w.start();
  await w.createProject('Ghost story');
  await w.createDocument('One');
  w.editor.input(PARAGRAPHS.join('\n\n'));
  const polishFirst = async () => {
    const text = w.editor.content;
    const end = text.indexOf('\n\n');
    await w.runner.run({ skillId: 'polish', start: 0, end: end < 0 ? text.length : end, defaultMessage: 'Polish.' });
    expect(w.runner.phase).toBe('review');
    await w.runner.accept();
    await w.runner.settled();
    w.editor.input(PARAGRAPHS.join('\n\n')); // the writer puts the long sentence back for the next try
    t.clock.advance(60_000);
  };
  return { ...t, w, jobs, polishFirst };
}

describe('learning from accepted results (episodes, then distillation in the jobs worker)', () => {
  it('records an episode per accept, learns nothing until distillation runs, and the next run carries the rule', async () => {
    const { w, engine, jobs, polishFirst } = await writerWhoLikesShortPolish();
    for (let i = 0; i < 5; i++) await polishFirst();
    const episodes = expectOk(await engine.call('episode.list', { projectId: w.projects.projectId! }));
    expect(episodes.total).toBe(5);
    expect(episodes.items.every((e) => e.skillUsed === 'polish' && e.implicit === 'strong-positive')).toBe(true);
    // feedback.record / episode.record only record (issue 17): no rule yet.
    expect(expectOk(await engine.call('rules.list', { projectId: w.projects.projectId! }))).toEqual([]);

    const out = await jobs.run('distill');
    expect(out).toMatchObject({ state: 'done', result: { trigger: 'manual', episodes: 5 } });
    const rules = expectOk(await engine.call('rules.list', { projectId: w.projects.projectId! }));
    const shorter = rules.find((r) => r.rule.includes('results shorter than the original'));
    expect(shorter).toMatchObject({ source: 'learned', scope: 'project', userConfirmed: false });
    expect(shorter?.supporting).toHaveLength(5);

    // The next polish carries the rule in L2, and the inspector can say it was a wrong influence.
    await w.runner.run({ skillId: 'polish', start: 0, end: 20, defaultMessage: 'Polish.' });
    const inspector = new InspectState({ engine });
    await inspector.open(w.runner.lastRunId!);
    const ruleRef = inspector.trace?.memoryReferences.find((r) => r.id === `preference:${shorter?.id}`);
    expect(ruleRef?.type).toBe('semantic');
    await inspector.verdict('incorrect', ruleRef!.id);
    expect(inspector.trace?.verdict).toBe('incorrect');
    expect(inspector.lastVerdictRule?.confidence).toBeCloseTo((shorter?.confidence ?? 0) - 0.1, 5);
    // 003 "负反馈作为新情景记忆参与后续蒸馏": the verdict is an episode the rule now counts against it.
    const verdicts = expectOk(await engine.call('episode.list', { kind: 'verdict' }));
    expect(verdicts.total).toBe(1);
    const stored = expectOk(await engine.call('rules.list', { projectId: w.projects.projectId! })).find((r) => r.id === shorter?.id);
    expect(stored?.contradicting).toContain(verdicts.items[0]?.id);
    expect(stored?.penalty).toBe(0.1);
  });

  it('compares prefixes: unchanged static layers match, a learned rule parts them in L2', async () => {
    const { w, engine, jobs, polishFirst } = await writerWhoLikesShortPolish();
    await polishFirst();
    const first = w.runner.lastRunId!;
    await polishFirst();
    const second = w.runner.lastRunId!;
    for (let i = 0; i < 3; i++) await polishFirst();
    await jobs.run('distill');
    await polishFirst();
    const learned = w.runner.lastRunId!;

    const inspector = new InspectState({ engine });
    await inspector.open(first);
    expect(inspector.candidates.map((c) => c.id)).toEqual(expect.arrayContaining([second, learned]));
    await inspector.compare(second);
    expect(inspector.comparison).toMatchObject({ same: true, byteOffset: null });
    await inspector.compare(learned);
    expect(inspector.comparison?.same).toBe(false);
    expect(inspector.comparison?.layer).toBe('L2');
    expect(inspector.comparison?.byteOffset).toBeGreaterThan(0);
  });
});
