import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../domain/errors';
import { createCaller } from '../../../engine/client/caller';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { DEFAULT_MODEL_SETTINGS } from '../../../domain/llm/settings';
import { scriptedProvider } from '../../../engine/client/testing';
import { startSkillGeneration } from './skill-generation';

/** A skill run is one context.build and one turn.finish, whatever the model does (issue 16). */
async function setup() {
  const t = await createTestEngine();
  const calls: string[] = [];
  const engine = createCaller({ call: (req) => (calls.push(req.method), t.engine.handle(req)) });
  const project = expectOk(await engine.call('project.create', { name: 'Novel' }));
  const doc = expectOk(await engine.call('document.create', { projectId: project.id, title: 'Ch 1', content: 'The rain fell on the old harbour.' }));
  const deps = { engine, locale: () => 'en' as const, now: () => t.clock.now() };
  const build = { skillId: 'polish', documentId: doc.id, projectId: project.id, message: 'Polish this', selection: { before: '', text: 'The rain fell on the old harbour.', after: '' } };
  return { t, calls, deps, build };
}

describe('a skill run on the generation module', () => {
  it('completes its run in one finish call; no message is stored for a skill', async () => {
    const { t, calls, deps, build } = await setup();
    calls.length = 0;
    const out = await startSkillGeneration({ deps, provider: scriptedProvider({ reply: () => 'Rain fell on the harbour.' }), settings: DEFAULT_MODEL_SETTINGS, build }).done;
    expect(out).toMatchObject({ kind: 'completed', text: 'Rain fell on the harbour.', finished: { message: null, afterReply: null } });
    expect(calls).toEqual(['context.build', 'turn.finish']);
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(expectOk(await t.engine.call('run.get', { runId: out.runId })).status).toBe('completed');
  });

  it('a model failure leaves the run failed, and the reason for the page', async () => {
    const { t, deps, build } = await setup();
    const out = await startSkillGeneration({
      deps,
      provider: scriptedProvider({ reply: () => 'x', fail: new EngineError('TIMEOUT', 'silent') }),
      settings: DEFAULT_MODEL_SETTINGS,
      build,
    }).done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out).toMatchObject({ kind: 'failed', error: { code: 'TIMEOUT' } });
    expect(expectOk(await t.engine.call('run.get', { runId: out.runId })).status).toBe('timeout');
  });
});
