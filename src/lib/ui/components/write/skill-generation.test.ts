import { describe, expect, it } from 'vitest';
import { EngineError, fail } from '../../../domain/errors';
import { createCaller } from '../../../engine/client/caller';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { DEFAULT_MODEL_SETTINGS } from '../../../domain/llm/settings';
import { scriptedProvider } from '../../../engine/client/testing';
import { startSkillGeneration } from './skill-generation';

/** A skill run is one context.build and one turn.finish, whatever the model does (issue 16). */
async function setup() {
  const t = await createTestEngine();
  const calls: string[] = [];
  /** The next `lostFinishes` turn.finish calls are applied, then answered as by a worker that died before replying. */
  const rig = { lostFinishes: 0 };
  const engine = createCaller({
    call: async (req) => {
      calls.push(req.method);
      if (req.method === 'turn.finish' && rig.lostFinishes > 0) {
        rig.lostFinishes--;
        await t.engine.handle(req);
        return fail('DB_UNAVAILABLE', 'The database worker is not reachable.');
      }
      return t.engine.handle(req);
    },
  });
  const project = expectOk(await engine.call('project.create', { name: 'Novel' }));
  const doc = expectOk(await engine.call('document.create', { projectId: project.id, title: 'Ch 1', content: 'The rain fell on the old harbour.' }));
  const deps = { engine, locale: () => 'en' as const, now: () => t.clock.now() };
  const build = { skillId: 'polish', documentId: doc.id, projectId: project.id, message: 'Polish this', selection: { before: '', text: 'The rain fell on the old harbour.', after: '' } };
  return { t, calls, deps, build, rig };
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

  it('Stop while the model writes: the run ends canceled in the one finish, nothing else is sent', async () => {
    const { t, calls, deps, build } = await setup();
    calls.length = 0;
    const texts: string[] = [];
    const gen = startSkillGeneration({
      deps,
      provider: scriptedProvider({ reply: () => 'A long answer that is still coming. '.repeat(10), pauseMs: 2 }),
      settings: DEFAULT_MODEL_SETTINGS,
      build,
      onText: (text) => {
        texts.push(text);
        if (texts.length === 3) gen.stop();
      },
    });
    const out = await gen.done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out).toMatchObject({ kind: 'stopped', error: { code: 'CANCELED' } });
    expect(calls).toEqual(['context.build', 'turn.finish']);
    expect(expectOk(await t.engine.call('run.get', { runId: out.runId })).status).toBe('canceled');
  });

  it('the database worker restarts while the run finishes: the finish is sent again under its op id and the run completes once', async () => {
    const { t, calls, deps, build, rig } = await setup();
    calls.length = 0;
    rig.lostFinishes = 1;
    const out = await startSkillGeneration({ deps, provider: scriptedProvider({ reply: () => 'Rain on the harbour.' }), settings: DEFAULT_MODEL_SETTINGS, build }).done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out).toMatchObject({ kind: 'completed', text: 'Rain on the harbour.', finishError: null });
    expect(calls).toEqual(['context.build', 'turn.finish', 'turn.finish']);
    expect(expectOk(await t.engine.call('run.get', { runId: out.runId })).status).toBe('completed');
  });

  it('another version of a finished run (003 candidates) streams the same request again: no build, no finish, the run stays completed', async () => {
    const { t, calls, deps, build } = await setup();
    const first = await startSkillGeneration({ deps, provider: scriptedProvider({ reply: () => 'First version.' }), settings: DEFAULT_MODEL_SETTINGS, build }).done;
    if (first.kind === 'unprepared') throw new Error('unprepared');
    calls.length = 0;
    let asked: { role: string; content: string }[] = [];
    const again = await startSkillGeneration({
      deps,
      provider: scriptedProvider({ reply: (messages) => ((asked = messages), 'Second version.') }),
      settings: DEFAULT_MODEL_SETTINGS,
      again: first.prepared,
    }).done;
    expect(again).toMatchObject({ kind: 'completed', text: 'Second version.', runId: first.runId, finished: null, finishError: null });
    expect(asked).toEqual(first.prepared.messages);
    expect(calls).toEqual([]);
    // A further version that fails leaves the run as the first version made it.
    const failed = await startSkillGeneration({
      deps,
      provider: scriptedProvider({ reply: () => 'x', fail: new EngineError('MODEL_UNAVAILABLE', 'gone') }),
      settings: DEFAULT_MODEL_SETTINGS,
      again: first.prepared,
    }).done;
    expect(failed).toMatchObject({ kind: 'failed', error: { code: 'MODEL_UNAVAILABLE' } });
    expect(calls).toEqual([]);
    expect(expectOk(await t.engine.call('run.get', { runId: first.runId })).status).toBe('completed');
  });
});
