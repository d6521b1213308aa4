import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { runSweepJob } from './run-sweep-job';

async function chat(t: TestEngine, sessionId: string, message = 'hello') {
  return expectOk(await t.engine.call('context.build', { kind: 'chat', sessionId, message, locale: 'en' }));
}

describe('runs for the inspector', () => {
  it('a completed run is found from its reply, by run.complete or by the reply’s meta.runId', async () => {
    const t = await createTestEngine();
    const s = expectOk(await t.engine.call('session.create', {}));
    const other = expectOk(await t.engine.call('session.create', {}));
    const a = await chat(t, s.id);
    const reply = expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'assistant', content: 'hi' }));
    const foreign = expectOk(await t.engine.call('message.append', { sessionId: other.id, role: 'user', content: 'x' }));
    expect(await t.engine.call('run.complete', { runId: a.runId, status: 'completed', messageId: foreign.message.id })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    expectOk(await t.engine.call('run.complete', { runId: a.runId, status: 'completed', messageId: reply.message.id }));
    // A retried completion is answered the same way; a different one is a conflict.
    expectOk(await t.engine.call('run.complete', { runId: a.runId, status: 'completed', messageId: reply.message.id }));
    expect(expectOk(await t.engine.call('run.forMessage', { messageId: reply.message.id })).id).toBe(a.runId);

    const b = await chat(t, s.id, 'again');
    const viaMeta = expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'assistant', content: 'yo', meta: { runId: b.runId } }));
    expect(expectOk(await t.engine.call('run.forMessage', { messageId: viaMeta.message.id })).id).toBe(b.runId);
    expect(await t.engine.call('run.forMessage', { messageId: foreign.message.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });

    const list = expectOk(await t.engine.call('run.list', { sessionId: s.id }));
    expect(list.map((r) => r.id)).toEqual([b.runId, a.runId]);
    expect(list[0]).not.toHaveProperty('messages');
  });

  it('issue 15: runs are listed by their request and conversation; each kept item carries its words and where it lives', async () => {
    const t = await createTestEngine();
    const s = expectOk(await t.engine.call('session.create', { title: 'Moving house' }));
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: 'We pack on Friday.' }));
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'assistant', content: 'Noted.' }));
    const long = `Where do I live now?   ${'and more words '.repeat(20)}`;
    const run = await chat(t, s.id, long);
    const [listed] = expectOk(await t.engine.call('run.list', { sessionId: s.id }));
    expect(listed?.where).toBe('Moving house');
    expect(listed?.request?.startsWith('Where do I live now? and more words')).toBe(true);
    expect(Array.from(listed?.request ?? '').length).toBe(120);

    const detail = expectOk(await t.engine.call('run.get', { runId: run.runId }));
    const items = detail.layers.flatMap((l) => l.items);
    const turn = items.find((i) => i.kind === 'turn' && i.text === 'We pack on Friday.');
    expect(turn?.meta).toMatchObject({ role: 'user' });
    expect(typeof turn?.meta?.createdAt).toBe('number');
    expect(items.find((i) => i.id === 'message')?.text).toContain('Where do I live now?');
  });

  it('issue 15: the run list reads each request with SQL (json_extract), never the whole layers JSON; a blank message falls back to the selection', async () => {
    const t = await createTestEngine();
    const s = expectOk(await t.engine.call('session.create', { title: 'Trip' }));
    await chat(t, s.id, 'Which train do I take to Porto?');
    // A skill run whose message is blank: the list names it by its selection (written as the engine stores layers).
    const l5 = { id: 'L5', text: '', tokens: 3, items: [{ id: 'message', kind: 'message', text: ' \n\t' }, { id: 'selection', kind: 'selection', text: '  The\n\nold   harbour at dawn  ' }] };
    t.driver.run(
      `INSERT INTO context_runs (id, kind, skill_id, session_id, project_id, document_id, stable_prefix_hash, status, created_at, layers, memory_ids, total_tokens, memory_degraded, input_chars, messages)
       VALUES ('run-skill', 'skill', 'polish', ?, NULL, NULL, 'h', 'completed', 1, ?, '[]', 3, 0, 0, NULL)`,
      [s.id, JSON.stringify([{ id: 'L1', text: '', tokens: 0, items: [] }, l5])],
    );
    const seen: string[] = [];
    const all = t.driver.all.bind(t.driver);
    t.driver.all = ((sql: string, params?: never) => {
      const rows = all(sql, params);
      if (/FROM context_runs/u.test(sql)) seen.push(...rows.flatMap((r) => Object.keys(r as object)));
      return rows;
    }) as typeof t.driver.all;
    const listed = expectOk(await t.engine.call('run.list', { sessionId: s.id }));
    expect(listed.map((r) => r.request)).toEqual(['The old harbour at dawn', 'Which train do I take to Porto?']);
    expect(seen).toContain('request');
    expect(seen).not.toContain('layers');
  });

  it('only the most recent runs keep their prompt text', async () => {
    const t = await createTestEngine({ context: { runMessagesKept: 2 } });
    const s = expectOk(await t.engine.call('session.create', {}));
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await chat(t, s.id, `message ${i}`));
    const [oldest, , newest] = await Promise.all(runs.map((r) => t.engine.call('run.get', { runId: r.runId }).then(expectOk)));
    expect(oldest).toMatchObject({ messages: null, messagesPruned: true });
    // The layers keep their tokens, sources and cuts for the inspector, not the text they held.
    expect(oldest?.layers).toHaveLength(6);
    expect(oldest?.layers.map((l) => l.text)).toEqual(['', '', '', '', '', '']);
    expect(JSON.stringify(oldest)).not.toContain('message 0');
    // A pruned run's kept items lose their words too (issue 15), and its list entry no longer quotes the request.
    expect(oldest?.layers.flatMap((l) => l.items).some((i) => i.text !== undefined)).toBe(false);
    const listed = expectOk(await t.engine.call('run.list', { sessionId: s.id }));
    expect(listed.find((r) => r.id === oldest?.id)?.request).toBeNull();
    expect(listed.find((r) => r.id === newest?.id)?.request).toBe('message 2');
    expect(newest?.messages?.at(-1)?.content).toContain('message 2');
    expect(newest?.layers.find((l) => l.id === 'L5')?.text).toContain('message 2');
  });

  it('003 用户查看 AI 输出的记忆溯源 / 反馈溯源判断有误: weights per reference; "incorrect" lowers a learned rule', async () => {
    const t = await createTestEngine();
    const p = expectOk(await t.engine.call('project.create', { name: 'P' }));
    expectOk(await t.engine.call('projectFile.write', { projectId: p.id, path: '.engram/style/guide.md', content: 'Short sentences. No adverbs.' }));
    t.driver.run(
      `INSERT INTO semantic_rules (id, rule, category, scope, key, confidence, source, created_at, updated_at)
       VALUES ('learned-1', 'Prefers short sentences', 'pacing', 'global', 'k.short', 0.8, 'learned', ?, ?)`,
      // Learned now: a learned rule unchanged for weeks has faded below 0.3 and is out of the context (issue 19).
      [t.clock.now(), t.clock.now()],
    );
    const confirmed = expectOk(await t.engine.call('rules.add', { rule: 'No exclamation marks' }));
    const r = expectOk(await t.engine.call('context.build', { kind: 'skill', skillId: 'polish', projectId: p.id, message: 'polish', locale: 'en', selection: { before: '', text: 'Run!', after: '' } }));
    const trace = expectOk(await t.engine.call('run.trace', { runId: r.runId }));
    expect(trace.generationId).toBe(r.runId);
    expect(trace.memoryReferences.map((x) => `${x.type}:${x.id}`).sort()).toEqual(
      ['file:file:.engram/style/guide.md', `semantic:preference:${confirmed.id}`, 'semantic:preference:learned-1'].sort(),
    );
    expect(trace.memoryReferences.reduce((sum, x) => sum + x.weight, 0)).toBeCloseTo(1, 2);
    expect(await t.engine.call('run.traceFeedback', { runId: r.runId, verdict: 'incorrect', referenceId: 'memory:nope' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    const judged = expectOk(await t.engine.call('run.traceFeedback', { runId: r.runId, verdict: 'incorrect', referenceId: 'preference:learned-1' }));
    expect(judged.verdict).toBe('incorrect');
    expectOk(await t.engine.call('run.traceFeedback', { runId: r.runId, verdict: 'incorrect', referenceId: `preference:${confirmed.id}` }));
    const rules = expectOk(await t.engine.call('rules.list', {}));
    expect(rules.find((x) => x.id === 'learned-1')).toMatchObject({ confidence: 0.7, contradicting: [`trace:${r.runId}`], version: 2 });
    expect(rules.find((x) => x.id === confirmed.id)).toEqual(confirmed);
  });
});

describe('runSweepJob', () => {
  it('the jobs worker’s sweep closes stale pending runs through the engine', async () => {
    const t = await createTestEngine();
    const s = expectOk(await t.engine.call('session.create', {}));
    await chat(t, s.id);
    t.clock.advance(11 * 60_000);
    const result = await runSweepJob.run({ engine: t.engine, trigger: 'periodic', progress: () => {}, signal: new AbortController().signal });
    expect(result).toEqual({ timedOut: 1 });
  });
});
