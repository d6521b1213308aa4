import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { InspectState } from '../inspect/inspect-state.svelte';
import { scriptedProvider, testWriteDeps } from './testing';
import { WriteState } from './write-state.svelte';

const PARAGRAPHS = ['The old house stood at the end of a long and winding road, its windows dark and its garden overgrown.', 'Nobody had lived there for years.'];

/** A writer who always accepts the model's shorter polish (004 feedback → 003 learned rule). */
async function writerWhoLikesShortPolish() {
  const t = await createTestEngine();
  const provider = scriptedProvider({ reply: () => 'The old house stood at the road’s end.' });
  const { deps } = testWriteDeps({ engine: t.engine, now: () => t.clock.now(), provider });
  const w = new WriteState(deps);
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
    w.editor.input(PARAGRAPHS.join('\n\n')); // the writer puts the long sentence back for the next try
  };
  return { ...t, w, polishFirst };
}

describe('learning from accepted results', () => {
  it('tells the writer what was learned once the evidence is there, and the next run carries the rule', async () => {
    const { w, engine, polishFirst } = await writerWhoLikesShortPolish();
    for (let i = 0; i < 4; i++) {
      await polishFirst();
      expect(w.runner.learned).toEqual([]);
    }
    await polishFirst();
    expect(w.runner.learned).toHaveLength(1);
    expect(w.runner.learned[0]).toMatchObject({ kind: 'created' });
    expect(w.runner.learned[0]?.rule).toContain('prefers results shorter than the original');
    const ruleId = w.runner.learned[0]?.ruleId;

    // The next polish carries the rule in L2, and the inspector can say it was a wrong influence.
    await w.runner.run({ skillId: 'polish', start: 0, end: 20, defaultMessage: 'Polish.' });
    const inspector = new InspectState({ engine });
    await inspector.open(w.runner.lastRunId!);
    const ruleRef = inspector.trace?.memoryReferences.find((r) => r.type === 'semantic');
    expect(ruleRef?.id).toBe(`preference:${ruleId}`);
    const before = inspector.rules.find((r) => `preference:${r.id}` === ruleRef?.id)?.confidence ?? 0;
    await inspector.verdict('incorrect', ruleRef!.id);
    expect(inspector.trace?.verdict).toBe('incorrect');
    expect(inspector.lastVerdictRule?.confidence).toBeCloseTo(before - 0.1, 5);
    const stored = expectOk(await engine.call('rules.list', { projectId: w.projects.projectId! }));
    expect(stored[0]?.contradicting).toContain(`trace:${w.runner.lastRunId}`);
  });

  it('compares prefixes: unchanged static layers match, a learned rule parts them in L2', async () => {
    const { w, engine, polishFirst } = await writerWhoLikesShortPolish();
    await polishFirst();
    const first = w.runner.lastRunId!;
    await polishFirst();
    const second = w.runner.lastRunId!;
    // Runs 3–5: the fifth accept creates the rule, so the sixth run is the first to carry it.
    for (let i = 0; i < 4; i++) await polishFirst();
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
