/**
 * Seed 003 "语义记忆蒸馏" and "记忆冲突检测与解决" on the real engine, with the jobs worker's distillation
 * job (engine/jobs/distill-job.ts) driving it exactly as in the app.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../src/lib/domain/errors';
import { createHeuristicProvider } from '../../src/lib/domain/llm/heuristic';
import type { ChatRequest, ModelProvider } from '../../src/lib/domain/llm/types';
import { distill } from '../../src/lib/domain/semantic/distill';
import { wilsonLower } from '../../src/lib/domain/semantic/stats';
import { testJobs } from '../../src/lib/engine/jobs/testing';
import type { Input } from '../../src/lib/engine/protocol/contract';
import { createTestEngine, expectOk, type TestEngine } from '../../src/lib/engine/testing';
import { chapter, DIALOGUES, FIGHTS, l, skillRun } from './learning-helpers';

const DAY = 86_400_000;
/** Sentences of 10–11 characters: "偏好短句（平均 < 15 字）". */
const SHORT = '他挥刀砍向那人的左肩膀。那人侧身避开锋利的刀刃。他反手又狠狠地砍一刀。';
const LONG = '他在漫长而寂静的夜色里缓缓举起那只早已疲惫不堪的手臂，朝着对方的脸用尽全身的力气挥出了沉重的一拳，而对方只是轻轻一侧身便躲开了这一击。';
const ORNATE = '金色的阳光静静地洒在碧绿的湖面上，微微的风轻轻地吹过，远处的山峦仿佛浸在淡淡的水墨里。';
const PLAIN = '阳光照在湖上。风吹过。远处是山。';

/** One interaction recorded straight through episode.record (as a client without a context run would). */
async function record(t: TestEngine, opts: { projectId: string; documentId: string; passage: string; skillId?: string; candidates: string[]; selectedIndex: number }) {
  const input: Input<'episode.record'> = {
    skillId: opts.skillId ?? 'continue',
    projectId: opts.projectId,
    documentId: opts.documentId,
    input: opts.passage,
    candidates: opts.candidates,
    selectedIndex: opts.selectedIndex,
  };
  return expectOk(await t.engine.call('episode.record', input));
}

/** A model that phrases every pattern it is given ("模型：<key>"), validated like any answer. */
function phrasingModel(): ModelProvider & { asked: number } {
  const p = {
    ...createHeuristicProvider(),
    kind: 'openai-compatible' as const,
    canGenerate: true,
    asked: 0,
    async json<T>(req: ChatRequest, schema: { parse(v: unknown): T }): Promise<T> {
      p.asked++;
      const keys = [...(req.messages[1]?.content ?? '').matchAll(/- key: (\S+)/g)].map((m) => m[1] as string);
      return schema.parse({ rules: keys.map((k) => ({ basedOn: [k], rule: `模型：${k}`, category: 'style' })) });
    },
  };
  return p;
}

const failingModel = (): ModelProvider => ({
  ...createHeuristicProvider(),
  kind: 'openai-compatible',
  canGenerate: true,
  json: () => Promise.reject(new EngineError('MODEL_UNAVAILABLE', 'The model server did not answer.')),
});

describe('seed 003 distillation', () => {
  it('003 批量触发语义记忆蒸馏: the 50th new episode makes it due, the jobs worker distills in the background with progress, rules appear, editing is never blocked', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    for (let i = 0; i < 49; i++) {
      const res = await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, candidates: [LONG, SHORT], selectedIndex: 1 });
      expect(res.distillDue).toBeNull();
    }
    // The scheduler's look finds nothing due yet (a look that finds nothing is not even recorded).
    expect(await jobs.scheduler.run('distill', 'periodic')).toMatchObject({ state: 'done' });
    expect(expectOk(await t.engine.call('jobs.history', { job: 'distill' }))).toEqual([]);
    // The next skill run completes: its episode is the 50th.
    const fiftieth = await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[0] as string, candidates: [LONG, SHORT], selectedIndex: 1 });
    expect(fiftieth.distillDue).toBe('batch');
    expect(expectOk(await t.engine.call('distill.status', {}))).toMatchObject({ due: 'batch', newEpisodes: 50 });

    // In the background: the page pokes the jobs worker, and the user keeps writing meanwhile.
    let finished = false;
    const seen = jobs.reports.length;
    const running = jobs.scheduler.run('distill', 'periodic').then((r) => ((finished = true), r));
    const edit = await t.engine.call('document.update', { id: doc.id, content: `${FIGHTS.join('\n\n')}\n\n他收起刀。` });
    expect(edit.ok).toBe(true);
    expect(finished).toBe(false);
    const outcome = await running;
    expect(outcome).toMatchObject({ state: 'done', result: { trigger: 'batch', episodes: 50 } });
    // 003 memory:distill:progress: the steps streamed to the panel, in order, ending done.
    const mine = jobs.reports.slice(seen).filter((r) => r.job === 'distill');
    const steps = mine.map((r) => r.step);
    expect(steps).toEqual(expect.arrayContaining(['learning.step.snapshot', 'learning.step.patterns', 'learning.step.apply', 'jobs.step.done']));
    const fractions = mine.filter((r) => r.fraction !== null).map((r) => r.fraction as number);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const rules = expectOk(await t.engine.call('rules.list', { projectId: project.id }));
    expect(rules.some((r) => r.rule.includes('短句'))).toBe(true);
    expect(expectOk(await t.engine.call('distill.status', {}))).toMatchObject({ due: null, newEpisodes: 0, lastDone: { trigger: 'batch', episodes: 50 } });
    expect(expectOk(await t.engine.call('jobs.history', { job: 'distill' }))[0]).toMatchObject({ status: 'ok', trigger: 'periodic' });
  });

  it('003 蒸馏产生新规则: of the last 50 episodes, 35 action scenes chose the short-sentence candidate → "动作场景：偏好短句（平均 < 15 字）", confidence by the stated test, unconfirmed', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    const action: string[] = [];
    for (let i = 0; i < 35; i++) action.push((await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, candidates: [LONG, SHORT], selectedIndex: 1 })).episode.id);
    for (let i = 0; i < 15; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: DIALOGUES[i % 4] as string, skillId: 'continue', candidates: [SHORT, LONG], selectedIndex: 1 });
    await testJobs({ engine: t.engine, clock: t.clock }).run('distill');
    const rules = expectOk(await t.engine.call('rules.list', { projectId: project.id }));
    const rule = rules.find((r) => r.key === 'scene.action.sentence-length');
    expect(rule?.rule).toBe('动作场景：偏好短句（平均 < 15 字） · action scenes: short sentences (under 15 characters on average)');
    // The stated statistical test: the one-sided 95 % Wilson lower bound, here 35 of 35 action episodes.
    expect(rule?.confidence).toBe(Math.round(wilsonLower(1, 35) * 100) / 100);
    expect(rule).toMatchObject({ userConfirmed: false, source: 'learned', category: 'pacing', scope: 'project', version: 1 });
    expect([...(rule?.supporting ?? [])].sort()).toEqual([...action].sort());
    // Not "all writing": the 15 dialogue episodes went the other way, so only action scenes got the rule.
    expect(rules.some((r) => r.key === 'all.sentence-length')).toBe(false);
    expect(rules.find((r) => r.key === 'scene.dialogue.sentence-length')?.rule).toContain('对白：偏好长句');
    // The history says what was learned, when and from which episodes.
    const history = expectOk(await t.engine.call('rules.history', { ruleId: rule?.id }));
    expect(history.items).toMatchObject([{ action: 'created', actor: 'distill', after: { rule: rule?.rule, confidence: rule?.confidence } }]);
    expect(history.items[0]?.episodes).toHaveLength(35);
  });

  it('003 蒸馏服务不可用时的降级: the model call fails → logged quietly, the rules stay as they were, and the next trigger retries', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    for (let i = 0; i < 50; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, candidates: [LONG, SHORT], selectedIndex: 1 });
    await testJobs({ engine: t.engine, clock: t.clock }).run('distill');
    const before = expectOk(await t.engine.call('rules.list', { projectId: project.id }));
    expect(before.length).toBeGreaterThan(0);
    // Fifty more — dialogue, with something new to learn — and the model (configured now) is down.
    for (let i = 0; i < 50; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: DIALOGUES[i % 4] as string, candidates: [SHORT, LONG], selectedIndex: 1 });
    let model: ModelProvider = failingModel();
    const jobs = testJobs({ engine: t.engine, clock: t.clock, provider: () => model });
    const failed = await jobs.scheduler.run('distill', 'periodic');
    expect(failed).toMatchObject({ state: 'failed', error: 'MODEL_UNAVAILABLE' });
    expect(expectOk(await t.engine.call('rules.list', { projectId: project.id }))).toEqual(before);
    expect(expectOk(await t.engine.call('distill.status', {}))).toMatchObject({ running: null, lastRun: { status: 'failed', errorCode: 'MODEL_UNAVAILABLE' }, newEpisodes: 50 });
    // Recorded as a warning with its code only (no toast: the panel shows the last run's state).
    expect(t.log.lines.filter((x) => x.event === 'distill.failed')).toEqual([{ level: 'warn', event: 'distill.failed', fields: { code: 'MODEL_UNAVAILABLE' } }]);
    // Not again and again on the same evidence: the next trigger is the next episode.
    expect(expectOk(await t.engine.call('distill.status', {})).due).toBeNull();
    await record(t, { projectId: project.id, documentId: doc.id, passage: DIALOGUES[0] as string, candidates: [SHORT, LONG], selectedIndex: 1 });
    // Due again: 50+ new episodes (batch) — this one also votes against a rule, which asks too (conflict).
    const due = expectOk(await t.engine.call('distill.status', {})).due;
    expect(['batch', 'conflict']).toContain(due);
    model = phrasingModel();
    expect(await jobs.scheduler.run('distill', 'periodic')).toMatchObject({ state: 'done', result: { trigger: due, episodes: 101, phrasedBy: 'model' } });
    const after = expectOk(await t.engine.call('rules.list', { projectId: project.id }));
    expect(after).not.toEqual(before);
    expect(after.some((r) => r.rule.startsWith('模型：'))).toBe(true);
  });
});

describe('seed 003 memory conflicts', () => {
  it('003 时间迁移——用户风格变化: an ornate rule from 60 days ago turns into "偏好简洁风格" when the last 30 days say so, marked as recently updated', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t, { content: ORNATE });
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    for (let i = 0; i < 10; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: ORNATE, skillId: 'polish', candidates: [PLAIN, ORNATE], selectedIndex: 1 });
    await jobs.run('distill');
    const old = expectOk(await t.engine.call('rules.list', { projectId: project.id })).find((r) => r.key === 'all.ornate');
    expect(old?.rule).toContain('偏好华丽辞藻');
    expect(old?.driftedAt).toBeNull();

    t.clock.advance(60 * DAY);
    for (let i = 0; i < 8; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: ORNATE, skillId: 'polish', candidates: [ORNATE, PLAIN], selectedIndex: 1 });
    await jobs.run('distill');
    const now = expectOk(await t.engine.call('rules.list', { projectId: project.id })).find((r) => r.id === old?.id);
    expect(now?.rule).toContain('偏好简洁风格');
    expect(now).toMatchObject({ driftedAt: t.clock.now(), version: (old?.version ?? 0) + 1, basis: [{ pattern: 'all.ornate', pole: 'plain' }] });
    const drift = expectOk(await t.engine.call('rules.history', { ruleId: old?.id })).items[0];
    expect(drift).toMatchObject({ action: 'drift', before: { rule: old?.rule }, after: { rule: now?.rule } });
    // The panel marks it "最近更新" (rules-view: a drift within 30 days).
    const { ruleBadges } = await import('../../src/lib/ui/components/memory/rules-view');
    expect(ruleBadges(now!, t.clock.now())).toContain('recent');
  });

  it('003 直接矛盾——用户选择解决: two learned rules that cannot both hold lose confidence, neither is injected, the panel asks; the chosen one is confirmed, the other deleted for good', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    // Fights continued in short sentences; dialogue polished into long ones: "action: short" and "polish:
    // long" meet when an action scene is polished.
    for (let i = 0; i < 8; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, candidates: [LONG, SHORT], selectedIndex: 1 });
    for (let i = 0; i < 8; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: DIALOGUES[i % 4] as string, skillId: 'polish', candidates: [SHORT, LONG], selectedIndex: 1 });
    const out = await jobs.run('distill');
    expect(Number(out.result?.conflicts)).toBeGreaterThan(0);
    const conflicts = expectOk(await t.engine.call('rules.conflicts', { projectId: project.id }));
    const rules = expectOk(await t.engine.call('rules.list', { projectId: project.id }));
    const short = rules.find((r) => r.key === 'scene.action.sentence-length');
    const long = rules.find((r) => r.key === 'skill.polish.sentence-length');
    expect(short?.rule).toContain('偏好短句');
    expect(long?.rule).toContain('偏好长句');
    const c = conflicts.find((x) => [x.ruleA, x.ruleB].sort().join() === [short?.id, long?.id].sort().join());
    expect(c).toBeDefined();
    // Both lost confidence (halved); each is marked as in conflict.
    const halved = (x: number) => Math.round(x * 0.5 * 100) / 100;
    expect(short?.confidence).toBe(halved((c?.ruleA === short?.id ? c?.confidenceA : c?.confidenceB) as number));
    expect(long?.confidence).toBe(halved((c?.ruleA === long?.id ? c?.confidenceA : c?.confidenceB) as number));
    expect(short?.conflictId).toBe(c?.id);
    // Neither is injected as a fact while the conflict is open.
    const polishAction = await skillRun(t, { documentId: doc.id, passage: FIGHTS[0] as string, skillId: 'polish', message: '润色' });
    expect(l(polishAction, 'L2').text).not.toContain(short?.rule as string);
    expect(l(polishAction, 'L2').text).not.toContain(long?.rule as string);
    expect(l(polishAction, 'L2').cut.filter((x) => x.reason === 'masked').map((x) => x.itemId)).toEqual(expect.arrayContaining([`preference:${short?.id}`, `preference:${long?.id}`]));

    // The user chooses "short".
    const resolved = expectOk(await t.engine.call('rules.resolveConflict', { conflictId: c?.id as string, keepRuleId: short?.id as string }));
    expect(resolved.kept).toMatchObject({ id: short?.id, userConfirmed: true, conflictId: null });
    expect(resolved.kept.confidence).toBeGreaterThan(short?.confidence ?? 1);
    expect(resolved.deleted).toBe(long?.id);
    const after = expectOk(await t.engine.call('rules.list', { projectId: project.id }));
    expect(after.some((r) => r.id === long?.id)).toBe(false);
    expect(expectOk(await t.engine.call('rules.conflicts', { projectId: project.id })).some((x) => x.id === c?.id)).toBe(false);
    // …and it is never learned again, however much more evidence comes.
    for (let i = 0; i < 8; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: DIALOGUES[i % 4] as string, skillId: 'polish', candidates: [SHORT, LONG], selectedIndex: 1 });
    await jobs.run('distill');
    expect(expectOk(await t.engine.call('rules.list', { projectId: project.id })).some((r) => r.key === 'skill.polish.sentence-length')).toBe(false);
    const next = await skillRun(t, { documentId: doc.id, passage: FIGHTS[1] as string, skillId: 'polish', message: '润色' });
    expect(l(next, 'L2').text).toContain(short?.rule as string);
  });

  it('003 并发蒸馏与写入冲突隔离: a distillation reads one consistent snapshot while new episodes are written without waiting; they count for the next one', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    for (let i = 0; i < 10; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, candidates: [LONG, SHORT], selectedIndex: 1 });
    const begun = expectOk(await t.engine.call('distill.begin', { trigger: 'manual' }));
    if (begun.state !== 'started') throw new Error('expected a distillation to start');
    const { snapshot } = begun;
    expect(snapshot.episodes).toHaveLength(10);
    // One at a time: a second distillation does not start while this one runs.
    expect(expectOk(await t.engine.call('distill.begin', { trigger: 'batch' }))).toEqual({ state: 'skipped', reason: 'running' });
    // Writes go on while the plan is worked out: new episodes, and an undo that changes an old one.
    const fresh = [];
    for (let i = 0; i < 3; i++) fresh.push((await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i] as string, candidates: [SHORT, LONG], selectedIndex: 1 })).episode.id);
    expect(expectOk(await t.engine.call('episode.list', {})).total).toBe(13);
    const plan = distill({ episodes: snapshot.episodes, rules: snapshot.rules, now: snapshot.now });
    const applied = expectOk(
      await t.engine.call('distill.apply', {
        distillId: snapshot.run.id,
        rules: plan.proposals.map((p) => ({
          scope: p.scope, projectId: p.projectId, key: p.key, rule: p.text, category: p.category, confidence: p.confidence,
          supporting: p.supporting, contradicting: p.contradicting, basis: [{ pattern: p.key, pole: p.pole }], change: p.change, phrasedBy: 'template' as const,
        })),
        refresh: plan.refresh,
      }),
    );
    expect(applied.created.length).toBeGreaterThan(0);
    // What was written during the distillation is in none of its evidence, and counts as new for the next.
    const rules = expectOk(await t.engine.call('rules.list', { projectId: project.id }));
    for (const r of rules) for (const id of fresh) expect([...r.supporting, ...r.contradicting]).not.toContain(id);
    expect(expectOk(await t.engine.call('distill.status', {}))).toMatchObject({ newEpisodes: 3, running: null, lastDone: { watermark: snapshot.run.watermark } });
    // A plan is applied once.
    expect(await t.engine.call('distill.apply', { distillId: snapshot.run.id, rules: [], refresh: [] })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });
});
