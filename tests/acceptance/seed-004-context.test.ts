/**
 * Seed 004 (context engine) scenarios, plus seed 000's layer mapping (ARCHITECTURE §6), on the real
 * engine: context.build, runs, feedback → episodes → distillation, rules, project files, documents, graph.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { preferencesEmpty } from '../../src/lib/domain/context';
import type { ContextBuildResult } from '../../src/lib/engine/context/types';
import { memoryProjectFileStore } from '../../src/lib/engine/files/project-file-store';
import type { Input } from '../../src/lib/engine/protocol/contract';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { testJobs } from '../../src/lib/engine/jobs/testing';
import { runDistillation } from '../../src/lib/engine/jobs/distill-run';
import { createHeuristicProvider } from '../../src/lib/domain/llm/heuristic';
import type { ModelProvider } from '../../src/lib/domain/llm/types';
import { EngineError } from '../../src/lib/domain/errors';
import { ALICE, allText, build, instrumented, layer, pending, polishRun, prefixOf, project, SELECTION, STYLE, withSettings, WORLD } from './context-helpers';
import { newSession, turn } from './helpers';

describe('seed 004 context engine', () => {
  it('004 构建一次 SKILL 调用的上下文包: six layers in order, a stable prefix first, a stored pending run, failures visible', async () => {
    const t = await createTestEngine();
    const p = await withSettings(t);
    const doc = expectOk(await t.engine.call('document.create', { projectId: p.id, title: '第一章', content: '……' }));
    const r = await build(t, { kind: 'skill', skillId: 'continue', documentId: doc.id, selection: SELECTION, message: '续写' });
    expect(r.layers.map((l) => l.id)).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'L5']);
    const system = r.messages[0];
    expect(system?.role).toBe('system');
    expect(system?.content.startsWith(prefixOf(r))).toBe(true);
    expect(r.stablePrefixHash).toMatch(/^[0-9a-f]{64}$/);
    const run = expectOk(await t.engine.call('run.get', { runId: r.runId }));
    expect(run).toMatchObject({ status: 'pending', skillId: 'continue', projectId: p.id, documentId: doc.id, stablePrefixHash: r.stablePrefixHash });
    expect(run.layers.map((l) => [l.id, l.status])).toEqual(r.layers.map((l) => [l.id, l.status]));

    // A failing and a hanging source: the layer shows a marker with a reason code, the call still succeeds.
    for (const [mode, status, marker] of [
      [{ reads: [], fail: true }, 'missing', '[项目设定：本次未能载入（无法读取）]'],
      [{ reads: [], hang: true }, 'timeout', '[项目设定：本次未能载入（超时）]'],
    ] as const) {
      const base = memoryProjectFileStore();
      const u = await createTestEngine({ files: instrumented(base, { ...mode, reads: [] }), context: { sourceTimeoutMs: 50 } });
      const q = await project(u, { '.engram/world/setting.md': WORLD });
      const res = await build(u, { kind: 'skill', skillId: 'consistency-check', projectId: q.id, selection: SELECTION });
      expect(layer(res, 'L3')).toMatchObject({ status, reason: status === 'missing' ? 'INTERNAL' : 'TIMEOUT' });
      expect(layer(res, 'L3').text).toContain(marker);
      expect(u.log.lines.some((l) => l.event === 'context.layer.unavailable' && l.fields?.layer === 'L3')).toBe(true);
    }
    const unknown = await t.engine.call('context.build', { kind: 'skill', skillId: 'rewrite-everything', message: 'x', locale: 'en' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', details: { field: 'skillId' } } });
  });

  it('004 精准注入（只给需要的）: polish (surrounding 500, no characters) injects no character card though the project has them', async () => {
    const reads: string[] = [];
    const t = await createTestEngine({ files: instrumented(memoryProjectFileStore(), { reads }) });
    const p = await withSettings(t);
    const longBefore = `${'前文段落。'.repeat(200)}\n\n${SELECTION.before}`;
    const r = await build(t, { kind: 'skill', skillId: 'polish', projectId: p.id, selection: { ...SELECTION, before: longBefore }, message: '润色' });
    expect(allText(r)).not.toContain('Alice');
    expect(allText(r)).not.toContain(WORLD);
    expect(r.layers.flatMap((l) => l.sources)).not.toContain('.engram/characters/alice.md');
    expect(reads).toEqual(['.engram/style/guide.md']);
    expect(layer(r, 'L3').sources).toEqual(['.engram/style/guide.md']);
    expect(layer(r, 'L4')).toMatchObject({ status: 'empty', items: [] });
    const user = r.messages.at(-1)?.content ?? '';
    expect(user).toContain(SELECTION.text);
    const before = user.split('选区前文：\n')[1]?.split('\n\n选区：')[0] ?? '';
    expect(Array.from(before).length).toBeLessThanOrEqual(500);
    expect(layer(r, 'L5').cut).toContainEqual(expect.objectContaining({ itemId: 'surround:before', reason: 'trimmed' }));
  });

  it('004 注入规则不可解析/非法: INVALID_ARGUMENT naming the field, never the value', async () => {
    const t = await createTestEngine();
    const cases: [unknown, string][] = [
      ['{"surrounding": 10', 'context_rules'],
      [{ surrounding: -5 }, 'context_rules.surrounding'],
      [{ memories: { topN: 'hunter2' } }, 'context_rules.memories.topN'],
      [{ characters: ['Alice', { secret: 'hunter2' }] }, 'context_rules.characters[1]'],
    ];
    for (const [contextRules, field] of cases) {
      const res = await t.engine.call('skill.validate', { contextRules });
      expect(res.ok).toBe(false);
      if (res.ok) continue;
      expect(res.error.code).toBe('INVALID_ARGUMENT');
      expect(res.error.details?.fields).toContain(field);
      expect(res.error.message).toContain(`\`${field}\``);
      expect(res.error.message).not.toContain('hunter2');
    }
    const ok = expectOk(await t.engine.call('skill.validate', { contextRules: '{"surrounding": 800, "characters": ["Alice"]}' }));
    expect(ok).toEqual({ surrounding: 800, characters: ['Alice'] });
  });

  it('004 `surrounding` 的单位与裁剪规则固定: N code points per side, paragraph first, then sentence, never mid-sentence', async () => {
    const t = await createTestEngine();
    // 3 paragraphs of 200 code points each (emoji count as one), selection, then sentences without paragraphs.
    const para = (c: string) => `${c.repeat(98)}😀。`;
    const paragraphs = [para('甲'), para('乙'), para('丙')];
    const before = paragraphs.map((x) => x + x).join('\n\n');
    const after = `${'句'.repeat(299)}。${'尾'.repeat(299)}。`;
    const r = await build(t, { kind: 'skill', skillId: 'polish', selection: { before, text: '选区。', after }, message: '润色' });
    const user = r.messages.at(-1)?.content ?? '';
    const keptBefore = user.split('选区前文：\n')[1]?.split('\n\n选区：')[0] ?? '';
    const keptAfter = user.split('选区后文：\n')[1]?.split('\n\n请求：')[0] ?? '';
    // Two whole paragraphs (2 × 200 + the blank line) fit in 500; three do not.
    expect(keptBefore).toBe(paragraphs.slice(1).map((x) => x + x).join('\n\n'));
    expect(Array.from(keptBefore).length).toBeLessThanOrEqual(500);
    // No paragraph boundary after the selection: the first sentence (300 code points) is kept whole.
    expect(keptAfter).toBe(`${'句'.repeat(299)}。`);
  });

  it('004 `context_rules` 未知字段被拒绝: unknown fields in rules and in the call are INVALID_ARGUMENT', async () => {
    const t = await createTestEngine();
    const res = await t.engine.call('skill.validate', { contextRules: { surrounding: 100, 'world-domination': true } });
    expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { fields: ['context_rules'] } } });
    if (!res.ok) expect(res.error.message).toContain('`world-domination`');
    const nested = await t.engine.call('skill.validate', { contextRules: { history: { turns: 3, everything: true } } });
    expect(nested).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { fields: ['context_rules.history'] } } });
    const call = await t.engine.handle({ method: 'context.build', input: { kind: 'chat', message: 'x', locale: 'en', rules: {} } });
    expect(call).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
  });

  it('004 同一 SKILL 类型在相同静态条件下复用前缀: byte-identical prefix and hash across time and messages', async () => {
    const t = await createTestEngine();
    const p = await withSettings(t);
    expectOk(await t.engine.call('rules.add', { rule: '对白口语化', scope: 'project', projectId: p.id }));
    const a = await build(t, { kind: 'skill', skillId: 'continue', projectId: p.id, selection: SELECTION, message: '续写一段' });
    t.clock.advance(3 * 86_400_000);
    const b = await build(t, { kind: 'skill', skillId: 'continue', projectId: p.id, selection: { before: '另一段。', text: '完全不同的选区。', after: '' }, message: '再续写' });
    expect(a.runId).not.toBe(b.runId);
    expect(Buffer.from(prefixOf(b))).toEqual(Buffer.from(prefixOf(a)));
    expect(b.stablePrefixHash).toBe(a.stablePrefixHash);
    expect(b.messages[0]?.content.startsWith(prefixOf(a))).toBe(true);
    // A different skill shares the system instructions: the bytes agree up to the skill definition.
    const c = await build(t, { kind: 'skill', skillId: 'polish', projectId: p.id, selection: SELECTION, message: '润色' });
    const shared = prefixOf(a).indexOf('任务（续写）');
    expect(shared).toBeGreaterThan(0);
    expect(prefixOf(c).slice(0, shared)).toBe(prefixOf(a).slice(0, shared));
  });

  it('004 stablePrefixHash 的口径稳定且可用于验收: SHA-256 of L0–L3 only, stored with the run', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    const a = await build(t, { sessionId: s.id, message: 'request 1 at 10:00' });
    t.clock.advance(60_000);
    const b = await build(t, { sessionId: s.id, message: 'request 2 at 10:01, id 7f3a' });
    expect(a.stablePrefixHash).toBe(createHash('sha256').update(prefixOf(a), 'utf8').digest('hex'));
    expect(b.stablePrefixHash).toBe(a.stablePrefixHash);
    expect(expectOk(await t.engine.call('run.get', { runId: b.runId })).stablePrefixHash).toBe(a.stablePrefixHash);
    expectOk(await t.engine.call('rules.add', { rule: '回答要简短' }));
    expect((await build(t, { sessionId: s.id })).stablePrefixHash).not.toBe(a.stablePrefixHash);
  });

  it('004 行为控制使用 masking 而非删除: without project or selection L0 is identical; only the flag line says so', async () => {
    const t = await createTestEngine();
    const p = await withSettings(t);
    const bare = await build(t, { kind: 'skill', skillId: 'polish', message: '润色' });
    const full = await build(t, { kind: 'skill', skillId: 'polish', projectId: p.id, selection: SELECTION, message: '润色' });
    expect(layer(bare, 'L0').text).toBe(layer(full, 'L0').text);
    expect(layer(bare, 'L0').text).toContain('项目设定');
    const flags = (r: ContextBuildResult) => r.messages[0]?.content.split('\n').find((l) => l.startsWith('本次可用：'));
    expect(flags(bare)).toBe('本次可用： 项目：否；选区：否；记忆：是');
    expect(flags(full)).toBe('本次可用： 项目：是；选区：是；记忆：是');
  });

  it('004 默认自动注入（无需手动预览）: an empty placeholder, then each rule appended without moving earlier bytes', async () => {
    const t = await createTestEngine();
    const skillRun = () => build(t, { kind: 'skill', skillId: 'polish', message: '润色', selection: SELECTION });
    const EMPTY = preferencesEmpty('zh');
    const empty = await skillRun();
    expect(layer(empty, 'L2').text).toContain(EMPTY);
    expect(layer(empty, 'L2').status).toBe('empty');
    expectOk(await t.engine.call('rules.add', { rule: '所有角色对白不使用感叹号' }));
    const one = await skillRun();
    expect(layer(one, 'L2').text).toContain('- 所有角色对白不使用感叹号（置信度: 1.00，用户已确认）');
    const head = prefixOf(empty).slice(0, prefixOf(empty).indexOf(EMPTY));
    expect(prefixOf(one).startsWith(head)).toBe(true);
    expectOk(await t.engine.call('rules.add', { rule: '动作场景偏好短句' }));
    const two = await skillRun();
    const l2End = prefixOf(one).indexOf(layer(one, 'L2').text) + layer(one, 'L2').text.length;
    expect(prefixOf(two).startsWith(prefixOf(one).slice(0, l2End))).toBe(true);
    expect(layer(two, 'L2').text.trim().endsWith('- 动作场景偏好短句（置信度: 1.00，用户已确认）')).toBe(true);

    // 用户可控（可关闭）: switched off, the rules are kept but masked — L2 is the same fixed placeholder
    // as with no preferences at all, so the prefix (and its hash) has the structure of the empty state.
    expectOk(await t.engine.call('settings.update', { patch: { 'preferences.inject': false } }));
    const off = await skillRun();
    expect(layer(off, 'L2')).toMatchObject({ status: 'empty', reason: 'disabled', text: layer(empty, 'L2').text });
    expect(allText(off)).not.toContain('感叹号');
    expect(off.stablePrefixHash).toBe(empty.stablePrefixHash);
    expect(expectOk(await t.engine.call('rules.list', {}))).toHaveLength(2);
    expectOk(await t.engine.call('settings.update', { patch: { 'preferences.inject': true } }));
    expect((await skillRun()).stablePrefixHash).toBe(two.stablePrefixHash);
    // A chat turn, which has no writing preferences to keep a place for, sends no empty section (issue 15).
    expectOk(await t.engine.call('rules.delete', { id: expectOk(await t.engine.call('rules.list', {}))[0]!.id }));
    expectOk(await t.engine.call('rules.delete', { id: expectOk(await t.engine.call('rules.list', {}))[0]!.id }));
    expect(layer(await build(t), 'L2').text).toBe('');
  });
});

describe('seed 004 feedback, cancellation, compaction, settings files', () => {
  it('004 采纳/拒绝触发偏好信号入库: each accept/reject is an audited event and an episode; the learning pipeline turns them into rules the next run injects', async () => {
    const t = await createTestEngine();
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    const p = await project(t);
    const doc = expectOk(await t.engine.call('document.create', { projectId: p.id, title: '一', content: '' }));
    const shorter = '她跑向控制台。按下按钮。';
    const longer = '她非常非常快速地、毫不犹豫地跑向了那个巨大的控制台，然后用力地按下了红色的按钮！真是太紧张了！';
    for (const action of ['accept', 'reject', 'accept', 'accept', 'reject', 'accept', 'accept'] as const) {
      const r = await polishRun(t, p.id);
      t.clock.advance(1000);
      const text = action === 'accept' ? { finalText: shorter } : { outputText: longer };
      const res = expectOk(await t.engine.call('feedback.record', { runId: r.runId, action, sampleRefs: [{ documentId: doc.id, from: 0, to: 40 }], ...text }));
      expect(res.episodeId).not.toBeNull();
      expect(res.distillDue).toBeNull();
    }
    const rows = t.driver.all<Record<string, unknown>>('SELECT run_id, skill_id, action, sample_refs, created_at, features, signal FROM feedback_events ORDER BY rid');
    expect(rows).toHaveLength(7);
    expect(rows[0]).toMatchObject({ skill_id: 'polish', action: 'accept', signal: 'strong-positive', sample_refs: JSON.stringify([{ documentId: doc.id, from: 0, to: 40 }]) });
    expect(rows[1]).toMatchObject({ action: 'reject', signal: 'strong-negative' });
    expect(JSON.stringify(rows)).not.toContain('控制台');
    // Recording learns nothing by itself (issue 17): it feeds the pipeline, which distillation runs.
    expect(expectOk(await t.engine.call('rules.list', { projectId: p.id }))).toEqual([]);
    expect(expectOk(await t.engine.call('distill.status', {}))).toMatchObject({ newEpisodes: 7, paused: false });
    expect(await jobs.run('distill')).toMatchObject({ state: 'done', result: { episodes: 7 } });
    const rules = expectOk(await t.engine.call('rules.list', { projectId: p.id }));
    const length = rules.find((r) => r.key === 'all.length');
    expect(length).toMatchObject({ scope: 'project', projectId: p.id, userConfirmed: false, source: 'learned' });
    expect(length?.rule).toContain('更短');
    expect(length?.confidence).toBeGreaterThanOrEqual(0.6);
    // Its evidence: the five accepts of a shorter text (the rejected text was about as long as the input).
    const accepted = expectOk(await t.engine.call('episode.list', { projectId: p.id, limit: 50 })).items.filter((e) => e.selectedIndex === 0).map((e) => e.id);
    expect([...(length?.supporting ?? [])].sort()).toEqual([...accepted].sort());
    const next = await build(t, { kind: 'skill', skillId: 'polish', projectId: p.id, selection: SELECTION, message: '润色' });
    expect(layer(next, 'L2').text).toContain(`${length?.rule}（置信度: ${length?.confidence.toFixed(2)}，项目级）`);

    // Deleted keys are never re-learned; confirmed rules are never overwritten.
    expectOk(await t.engine.call('rules.delete', { id: length?.id as string }));
    const bang = rules.find((r) => r.key === 'all.exclamation');
    expect(bang).toBeDefined();
    const confirmed = expectOk(await t.engine.call('rules.confirm', { id: bang?.id as string }));
    for (let i = 0; i < 3; i++) {
      const r = await polishRun(t, p.id);
      expectOk(await t.engine.call('feedback.record', { runId: r.runId, action: 'accept', finalText: shorter }));
    }
    await jobs.run('distill');
    const after = expectOk(await t.engine.call('rules.list', { projectId: p.id }));
    expect(after.some((r) => r.key === 'all.length')).toBe(false);
    expect(after.find((r) => r.id === bang?.id)).toEqual(confirmed);

    // Learning switched off (用户可控): each event and episode is still recorded, nothing is learned;
    // back on, the recorded episodes count.
    const u = await createTestEngine();
    const ujobs = testJobs({ engine: u.engine, clock: u.clock });
    const q = await project(u);
    expectOk(await u.engine.call('settings.update', { patch: { 'preferences.learning': false } }));
    for (let i = 0; i < 5; i++) {
      const r = await polishRun(u, q.id);
      expectOk(await u.engine.call('feedback.record', { runId: r.runId, action: 'accept', finalText: shorter }));
    }
    expect(u.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM feedback_events')?.n).toBe(5);
    expect(expectOk(await u.engine.call('episode.list', {})).total).toBe(5);
    expect(await ujobs.run('distill')).toMatchObject({ state: 'done', result: { skipped: 'paused' } });
    expect(expectOk(await u.engine.call('rules.list', { projectId: q.id }))).toEqual([]);
    expectOk(await u.engine.call('settings.update', { patch: { 'preferences.learning': true } }));
    await ujobs.run('distill');
    expect(expectOk(await u.engine.call('rules.list', { projectId: q.id })).length).toBeGreaterThan(0);
  });

  it('004 用户取消/超时: Stop while building gives CANCELED and stores nothing; feedback on canceled/timed-out runs says so; nothing left pending', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    const a = await build(t, { sessionId: s.id });
    const b = await build(t, { sessionId: s.id });
    expect(expectOk(await t.engine.call('run.get', { runId: a.runId })).status).toBe('canceled');
    expectOk(await t.engine.call('run.complete', { runId: b.runId, status: 'canceled' }));
    const onCanceled = await t.engine.call('feedback.record', { runId: b.runId, action: 'accept' });
    expect(onCanceled).toMatchObject({ ok: false, error: { code: 'CANCELED', details: { field: 'runId' } } });
    expect(await t.engine.call('feedback.record', { runId: a.runId, action: 'reject' })).toMatchObject({ ok: false, error: { code: 'CANCELED' } });
    expect(await t.engine.call('run.complete', { runId: b.runId, status: 'completed' })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await t.engine.call('feedback.record', { runId: 'no-such-run', action: 'reject' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const c = await build(t, { sessionId: s.id });
    t.clock.advance(9 * 60_000);
    expect(expectOk(await t.engine.call('run.sweep', {})).timedOut).toEqual([]);
    t.clock.advance(2 * 60_000);
    expect(expectOk(await t.engine.call('run.sweep', {})).timedOut).toEqual([c.runId]);
    expect(await t.engine.call('feedback.record', { runId: c.runId, action: 'accept' })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(pending(t)).toBe(0);

    // Stop while the context is being built (a setting file that never finishes loading): CANCELED, no run.
    const hanging = await createTestEngine({ files: instrumented(memoryProjectFileStore(), { reads: [], hang: true }), context: { sourceTimeoutMs: 60_000 } });
    const hp = await project(hanging, { '.engram/world/setting.md': WORLD });
    const building = hanging.engine.call('context.build', { kind: 'skill', skillId: 'consistency-check', projectId: hp.id, selection: SELECTION, message: '检查', locale: 'zh-CN', requestId: 'req-stop-while-building' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(expectOk(await hanging.engine.call('context.cancel', { requestId: 'req-stop-while-building' }))).toEqual({ canceled: true });
    expect(await building).toMatchObject({ ok: false, error: { code: 'CANCELED', details: { field: 'requestId' } } });
    expect(hanging.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM context_runs')?.n).toBe(0);
    // A Stop that overtakes its build (sent right after it) cancels it too.
    expect(expectOk(await t.engine.call('context.cancel', { requestId: 'req-stopped-first' }))).toEqual({ canceled: false });
    const runsBefore = t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM context_runs')?.n;
    expect(await t.engine.call('context.build', { kind: 'chat', sessionId: s.id, message: '你好', locale: 'zh-CN', requestId: 'req-stopped-first' })).toMatchObject({ ok: false, error: { code: 'CANCELED' } });
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM context_runs')?.n).toBe(runsBefore);
    expect(pending(t)).toBe(0);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM feedback_events')?.n).toBe(0);

    // The preference update itself (distillation) timing out: TIMEOUT, nothing half-applied, nothing left running.
    const u = await createTestEngine();
    const q = await project(u);
    for (let i = 0; i < 5; i++) expectOk(await u.engine.call('feedback.record', { runId: (await polishRun(u, q.id)).runId, action: 'accept', finalText: '短。' }));
    const slow: ModelProvider = {
      ...createHeuristicProvider(),
      kind: 'openai-compatible',
      canGenerate: true,
      json: () => Promise.reject(new EngineError('TIMEOUT', 'The model did not answer in time.')),
    };
    expect(await runDistillation({ engine: u.engine, provider: slow, trigger: 'manual' })).toMatchObject({ state: 'failed', code: 'TIMEOUT' });
    expect(expectOk(await u.engine.call('rules.list', { projectId: q.id }))).toEqual([]);
    const status = expectOk(await u.engine.call('distill.status', {}));
    expect(status.running).toBeNull();
    expect(status.lastRun).toMatchObject({ status: 'failed', errorCode: 'TIMEOUT' });
    // A distillation that never came back is closed as TIMEOUT by the next one, not left running.
    const begun = expectOk(await u.engine.call('distill.begin', { trigger: 'manual' }));
    expect(begun.state).toBe('started');
    u.clock.advance(11 * 60_000);
    expect(expectOk(await u.engine.call('distill.begin', { trigger: 'manual' })).state).toBe('started');
    expect(u.driver.all<{ status: string; error_code: string | null }>('SELECT status, error_code FROM distill_runs ORDER BY rid').map((r) => [r.status, r.error_code])).toEqual([
      ['failed', 'TIMEOUT'],
      ['failed', 'TIMEOUT'],
      ['running', null],
    ]);
    expect(pending(u)).toBe(0);
  });

  it('004 历史记录自动压缩: past the threshold a structured compact summary is stored and used instead of the rolling ones', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 1; i <= 45; i++) await turn(t, s.id, `第 ${i} 轮：我们决定把模块 M${i} 改成异步。`, `好的，M${i} 已改为异步。`, 1000);
    // No rolling summary yet (storing a turn never makes one): building the context makes the 8 that are due.
    expect(expectOk(await t.engine.call('summary.list', { sessionId: s.id, kind: 'rolling' }))).toHaveLength(0);
    const r = await build(t, { sessionId: s.id, message: '继续' });
    expect(expectOk(await t.engine.call('summary.list', { sessionId: s.id, kind: 'rolling' }))).toHaveLength(8);
    const compacts = expectOk(await t.engine.call('summary.list', { sessionId: s.id, kind: 'compact' }));
    expect(compacts).toHaveLength(1);
    const compact = compacts[0] as (typeof compacts)[number];
    expect([compact.startTurn, compact.endTurn]).toEqual([1, 30]);
    expect(compact.summary).toMatch(/^compact summary 压缩摘要 \(1–30\) · full: summaries#\d+-\d+/);
    expect(compact.keyDecisions.length).toBeGreaterThan(0);
    const l4 = layer(r, 'L4').items.map((i) => i.id);
    expect(l4).toContain(`summary:${compact.id}`);
    const rolling = expectOk(await t.engine.call('summary.list', { sessionId: s.id, kind: 'rolling' }));
    for (const old of rolling.filter((x) => x.endTurn <= 30)) expect(l4).not.toContain(`summary:${old.id}`);
    expect(l4).toContain(`summary:${rolling.find((x) => x.startTurn === 31)?.id}`);
    // Full turns are still one call away, and a second build does not compact again.
    const full = expectOk(await t.engine.call('summary.turns', { id: compact.id }));
    expect(full).toHaveLength(60);
    expect(full[0]?.content).toContain('第 1 轮');
    await build(t, { sessionId: s.id, message: '再继续' });
    expect(expectOk(await t.engine.call('summary.list', { sessionId: s.id, kind: 'compact' }))).toHaveLength(1);
  });

  it('004 历史记录自动压缩: a project’s skill run records past the threshold become a compact summary file, cited in L4, with the way back to every run', async () => {
    const t = await createTestEngine({ context: { runCompactMaxEntries: 4, runCompactKeepRecent: 2 } });
    const p = await withSettings(t);
    const doc = expectOk(await t.engine.call('document.create', { projectId: p.id, title: '第一章', content: '……' }));
    const continueRun = async (action?: 'accept' | 'reject') => {
      t.clock.advance(60_000);
      const r = await build(t, { kind: 'skill', skillId: 'continue', documentId: doc.id, selection: SELECTION, message: '续写' });
      expectOk(await t.engine.call('run.complete', { runId: r.runId, status: 'completed' }));
      if (action) expectOk(await t.engine.call('feedback.record', { runId: r.runId, action, ...(action === 'accept' ? { finalText: '她按下按钮。' } : { outputText: '她非常快地跑了！' }) }));
      return r;
    };
    const runs = [];
    for (const action of ['accept', 'reject', 'accept', undefined, 'accept'] as const) runs.push(await continueRun(action));
    // Five finished runs: not past 4 yet when the fifth was built; the sixth build compacts runs 1–3.
    const sixth = await continueRun();
    const file = await t.files.read(p.id, '.engram/history/skill-runs.md');
    expect(file).toContain('compact summary 压缩摘要 (1–3) · full: context_runs#');
    expect(file).toContain('topics 主题: continue ×3');
    expect(file).toContain('decisions 决定: continue: accepted 2 · rejected 1');
    expect(file).toContain(`runs 运行: ${runs.slice(0, 3).map((r) => r.runId).join(', ')}`);
    // Used in context: L4 cites the file; L3 (the stable prefix) never holds it.
    const l4 = layer(sixth, 'L4');
    expect(l4.items.map((i) => i.id)).toContain(`compact:runs:${p.id}`);
    expect(l4.sources).toContain('.engram/history/skill-runs.md');
    expect(l4.text).toContain('continue: accepted 2 · rejected 1');
    expect(l4.text).toContain(`full: context_runs#${runs[0]!.runId}…${runs[2]!.runId}`);
    expect(l4.text).not.toContain('runs 运行');
    expect(l4.text).not.toContain(runs[1]!.runId);
    expect(layer(sixth, 'L3').text).not.toContain('压缩摘要');
    // The way back: every run named in the file is still there in full.
    for (const r of runs.slice(0, 3)) expect(expectOk(await t.engine.call('run.get', { runId: r.runId })).layers).toHaveLength(6);
    // Append-only: the next compaction adds a section and leaves the first byte for byte.
    for (let i = 0; i < 4; i++) await continueRun('accept');
    const later = await t.files.read(p.id, '.engram/history/skill-runs.md');
    expect(later?.startsWith(file!.trimEnd())).toBe(true);
    expect(later).toContain('compact summary 压缩摘要 (4–');
    // A skill that does not ask for history gets none of it.
    const polish = await build(t, { kind: 'skill', skillId: 'polish', documentId: doc.id, selection: SELECTION, message: '润色' });
    expect(allText(polish)).not.toContain('压缩摘要');
  });

  it('004 设定按需加载: only requested folders are read, cited by relative path and trimmed to budget', async () => {
    const reads: string[] = [];
    const t = await createTestEngine({ files: instrumented(memoryProjectFileStore(), { reads }) });
    const longWorld = Array.from({ length: 80 }, (_, i) => `第${i + 1}条设定：轨道站的第${i + 1}层住着工程师。`).join('');
    const p = await project(t, { '.engram/characters/alice.md': ALICE, '.engram/world/setting.md': longWorld, '.engram/style/guide.md': STYLE });
    const summarize = await build(t, { kind: 'skill', skillId: 'summarize', projectId: p.id, selection: SELECTION, message: '概括' });
    expect(reads).toEqual([]);
    expect(layer(summarize, 'L3')).toMatchObject({ status: 'empty', reason: 'not-requested' });
    const r = await build(t, { kind: 'skill', skillId: 'continue', projectId: p.id, selection: SELECTION, message: '续写', budgets: { L3: 300 } });
    expect(reads.sort()).toEqual(['.engram/characters/alice.md', '.engram/style/guide.md', '.engram/world/setting.md']);
    const l3 = layer(r, 'L3');
    expect(l3.text).toContain(`[file:.engram/characters/alice.md]\n${ALICE}`);
    expect(l3.tokens).toBeLessThanOrEqual(300);
    expect(l3.cut).toContainEqual(expect.objectContaining({ itemId: 'file:.engram/world/setting.md', reason: 'trimmed' }));
    const world = l3.text.split('[file:.engram/world/setting.md]\n')[1] ?? '';
    expect(world.length).toBeGreaterThan(0);
    expect(longWorld.startsWith(world.trim())).toBe(true);
    expect(world.trim().endsWith('。')).toBe(true);
    expect(l3.sources).toEqual(['.engram/characters/alice.md', '.engram/style/guide.md', '.engram/world/setting.md']);
  });

  it('004 来源引用必须去敏并且可移植: absolute paths and `..` escapes are refused without echoing them; citations are project-relative', async () => {
    const t = await createTestEngine();
    const p = await project(t);
    for (const path of ['/home/alice/novel/.engram/x.md', '../../etc/passwd', 'C:\\Users\\alice\\a.md', 'file:///home/alice/a.md', '.engram/../../alice.md', 'notes/alice.md']) {
      const res = await t.engine.call('projectFile.write', { projectId: p.id, path, content: 'x' });
      expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { fields: ['path'] } } });
      if (!res.ok) expect(res.error.message).not.toMatch(/alice|home|Users/);
    }
    const saved = expectOk(await t.engine.call('projectFile.write', { projectId: p.id, path: './.engram\\characters\\bob.md', content: 'Bob：工程师。' }));
    expect(saved.path).toBe('.engram/characters/bob.md');
    expect(expectOk(await t.engine.call('projectFile.read', { projectId: p.id, path: '.engram/characters/bob.md' })).content).toBe('Bob：工程师。');
    const r = await build(t, { kind: 'skill', skillId: 'continue', projectId: p.id, selection: SELECTION, message: '续写' });
    expect(layer(r, 'L3').sources).toEqual(['.engram/characters/bob.md']);
    expect(allText(r)).toContain('[file:.engram/characters/bob.md]');
    const bad = await t.engine.call('graph.addEntity', { projectId: p.id, type: 'character', name: 'Bob', sourceRef: '/Users/alice/bob.md' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { fields: ['sourceRef'] } } });
    expect(JSON.stringify(t.log.lines)).not.toContain('工程师');
  });

  it('004 一致性检查的图谱查询: status changes over story time and a contradiction with its evidence', async () => {
    const t = await createTestEngine();
    const p = await project(t);
    const alice = expectOk(await t.engine.call('graph.addEntity', { projectId: p.id, type: 'character', name: 'Alice', aliases: ['领航员'], sourceRef: '.engram/characters/alice.md' }));
    const fact = (predicate: string, object: string, valid: Input<'graph.addFact'>['valid'], ref: string) =>
      t.engine.call('graph.addFact', { projectId: p.id, subject: alice.id, predicate, object, valid, evidence: [{ ref }] });
    expectOk(await fact('status', 'alive', { from: null, to: { chapter: 5 } }, 'file:.engram/characters/alice.md'));
    const dead = expectOk(await fact('status', 'dead', { from: { chapter: 5, scene: 2 }, to: null }, 'document:d1#p3'));
    expectOk(await fact('location', 'bridge', { from: { chapter: 6 }, to: null }, 'document:d1#p9'));
    const alive = expectOk(await fact('status', 'alive', { from: { chapter: 7, scene: 2 }, to: null }, 'document:d2#p4'));
    const check = expectOk(await t.engine.call('graph.check', { projectId: p.id, names: ['领航员'] }));
    expect(check.entities.map((e) => e.name)).toEqual(['Alice']);
    expect(check.facts.map((f) => f.object)).toEqual(['alive', 'dead', 'bridge', 'alive']);
    expect(check.contradictions).toHaveLength(1);
    expect(check.contradictions[0]?.facts.map((f) => f.id).sort()).toEqual([dead.id, alive.id].sort());
    expect(check.contradictions[0]?.evidence.map((e) => e.ref).sort()).toEqual(['document:d1#p3', 'document:d2#p4']);
    const at6 = expectOk(await t.engine.call('graph.check', { projectId: p.id, names: ['Alice'], at: { chapter: 6 } }));
    expect(at6.facts.map((f) => `${f.predicate}=${f.object}`)).toEqual(['status=dead', 'location=bridge']);
    expect(await t.engine.call('graph.check', { projectId: 'nope', names: ['Alice'] })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});

describe('seed 000 layer mapping', () => {
  it('000 加载用户画像: the profile is L1 when memory.enable_user_profile is on, and absent when off', async () => {
    const t = await createTestEngine();
    expectOk(await t.engine.call('profile.update', { content: '称呼：小明\n回复风格：简洁' }));
    const on = await build(t);
    expect(layer(on, 'L1')).toMatchObject({ status: 'ok', items: [{ id: 'profile' }] });
    expect(layer(on, 'L1').text).toContain('称呼：小明');
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.enable_user_profile': false } }));
    const off = await build(t);
    expect(layer(off, 'L1')).toMatchObject({ status: 'empty', reason: 'disabled', items: [] });
    expect(allText(off)).not.toContain('小明');
  });

  it('000 注入近期会话摘要: the most recent other sessions (title + snippet) go to L4, memory.session_summary_limit of them', async () => {
    const t = await createTestEngine();
    const others = [];
    for (const topic of ['Rust 生命周期', 'Python 装饰器', 'SQL 索引', 'CSS 网格']) {
      const o = await newSession(t);
      await turn(t, o.id, `讲讲 ${topic}`, `${topic} 的要点如下。`);
      others.push(o);
    }
    const current = await newSession(t);
    await turn(t, current.id, '今天天气', '晴');
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.session_summary_limit': 2 } }));
    const r = await build(t, { sessionId: current.id, message: '随便聊聊' });
    const ids = layer(r, 'L4').items.map((i) => i.id).filter((id) => id.startsWith('session:'));
    expect(ids).toEqual([`session:${others[3]?.id}`, `session:${others[2]?.id}`]);
    expect(layer(r, 'L4').text).toContain('CSS 网格 的要点如下。');
  });

  it('000 被动 RAG 检索原子记忆: memory.rag_top_n memories in L4; only the ones kept are marked accessed', async () => {
    const t = await createTestEngine();
    const teas = ['I like green tea in the morning', 'Oolong tea after lunch helps me focus', 'Jasmine tea reminds me of home', 'I never drink tea after 8pm', 'Black tea with milk is my favourite tea'];
    const created = [];
    for (const content of [...teas, 'My car is a blue Volvo']) created.push(expectOk(await t.engine.call('memory.create', { content })));
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.rag_top_n': 3 } }));
    const r = await build(t, { message: 'Which tea should I drink tonight?' });
    expect(r.memoryIds).toHaveLength(3);
    expect(layer(r, 'L4').items.map((i) => i.id)).toEqual(r.memoryIds.map((id) => `memory:${id}`));
    const counts = () => new Map(t.driver.all<{ id: string; access_count: number }>('SELECT id, access_count FROM memories').map((m) => [m.id, m.access_count]));
    for (const m of created) expect(counts().get(m.id)).toBe(r.memoryIds.includes(m.id) ? 1 : 0);
    // A tight L4 budget keeps fewer: only those are marked.
    const tight = await build(t, { message: 'Which tea should I drink tonight?', budgets: { L4: 24 } });
    expect(tight.memoryIds.length).toBeLessThan(3);
    expect(layer(tight, 'L4').cut.filter((c) => c.reason === 'over-budget').length).toBeGreaterThan(0);
    const after = counts();
    for (const id of r.memoryIds) expect(after.get(id)).toBe(tight.memoryIds.includes(id) ? 2 : 1);
  });

  it('000 消息数超限裁剪: L5 holds at most chat.context_limit messages, whole turns leaving oldest first', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 1; i <= 5; i++) await turn(t, s.id, `问题 ${i}`, `回答 ${i}`);
    const stored = expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: '问题 6' }));
    expectOk(await t.engine.call('settings.update', { patch: { 'chat.context_limit': 4 } }));
    const r = await build(t, { sessionId: s.id, message: '问题 6', excludeMessageId: stored.message.id });
    expect(r.messages.slice(1, -1).map((m) => `${m.role}:${m.content}`)).toEqual(['user:问题 4', 'assistant:回答 4', 'user:问题 5', 'assistant:回答 5']);
    expect(allText(r).split('问题 6').length - 1).toBe(1);
    expectOk(await t.engine.call('settings.update', { patch: { 'chat.context_limit': 3 } }));
    const odd = await build(t, { sessionId: s.id, message: '问题 6', excludeMessageId: stored.message.id });
    expect(odd.messages.slice(1, -1).map((m) => m.content)).toEqual(['问题 5', '回答 5']);
  });
});
