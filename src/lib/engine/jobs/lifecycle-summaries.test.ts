import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DAY_MS } from '../../domain/clock';
import { createProvider } from '../../domain/llm';
import { DEFAULT_MODEL_SETTINGS } from '../../domain/llm/settings';
import { startFakeOpenAi, type FakeOpenAi, type RecordedRequest } from '../../../../tests/fixtures/fake-openai-server';
import { createCaller } from '../client/caller';
import { createTestEngine, expectOk } from '../testing';
import { lifecycleJob } from './lifecycle-job';
import type { JobContext } from './types';

/** Three episodes written 15 days ago: decayed below 0.3 (due for compression), not below 0.1 (the purge keeps them). */
async function oldEpisodes() {
  const t = await createTestEngine();
  const engine = createCaller({ call: (req) => t.engine.handle(req) });
  const now = t.clock.now();
  t.clock.set(now - 16 * DAY_MS);
  const project = expectOk(await engine.call('project.create', { name: 'old novel' }));
  for (const [i, text] of ['雨夜里她推开门，灯光摇晃。', 'The harbour was quiet at dawn.', '他握紧了那封信，没有说话。'].entries()) {
    t.clock.set(now - (15 + i / 10) * DAY_MS);
    expectOk(await engine.call('episode.record', { skillId: 'continue', projectId: project.id, input: `passage ${i}`, candidates: [text, `${text}（另一版）`], selectedIndex: 0 }));
  }
  t.clock.set(now);
  const summaries = () => t.driver.all<{ id: string; summary: string; compressed: number }>('SELECT id, summary, compressed FROM episodes ORDER BY rid');
  const run = (provider: ReturnType<typeof createProvider> | null) =>
    lifecycleJob({ provider: () => provider }).run({ engine, trigger: 'demand', progress: () => undefined, signal: new AbortController().signal } satisfies JobContext);
  return { t, engine, summaries, run };
}

const settings = (url: string) => ({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible' as const, baseUrl: url, model: 'test-model' });
const isSummaryAsk = (r: RecordedRequest) => r.path === '/v1/chat/completions' && JSON.stringify(r.body).includes('compress one memory');

describe('compression summaries phrased by the configured model (issue 19 item 2)', () => {
  let ok: FakeOpenAi;
  let failing: FakeOpenAi;
  const fetched: string[] = [];
  beforeAll(async () => {
    ok = await startFakeOpenAi({ replies: () => ({ text: `Model summary #${ok.requests.filter(isSummaryAsk).length}: scene action, skill continue, kept the first candidate.` }) });
    failing = await startFakeOpenAi({ replies: () => ({ status: 500 }) });
  });
  afterAll(async () => {
    await ok.close();
    await failing.close();
  });
  afterEach(() => vi.restoreAllMocks());
  const watchFetch = () => {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      fetched.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      return real(input, init);
    });
  };

  it('with a model: every due episode gets the model’s summary, asked with the template’s facts, and only the configured endpoint is called', async () => {
    const { summaries, run } = await oldEpisodes();
    fetched.length = 0;
    watchFetch();
    const result = await run(createProvider(settings(ok.url)));
    expect(result).toMatchObject({ summariesByModel: 3, summariesSkipped: 0, summaryFallback: null });
    const rows = summaries();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.compressed === 1)).toBe(true);
    expect(rows.map((r) => r.summary)).toEqual(rows.map((_, i) => expect.stringMatching(new RegExp(`^Model summary #${i + 1}:`))));
    const asks = ok.requests.filter(isSummaryAsk);
    expect(asks).toHaveLength(3);
    // The model read the facts the template keeps (scene, skill, feedback) and an excerpt of the kept text.
    expect(JSON.stringify(asks[0]!.body)).toMatch(/scene .*skill continue/);
    expect(JSON.stringify(asks[0]!.body)).toContain('雨夜里她推开门');
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((u) => u.startsWith(ok.url))).toBe(true);
  });

  it('finds the due episodes a bounded window of rows at a time, past a long run of fresh ones', async () => {
    const { t, run } = await oldEpisodes();
    const bulk = (n: number, prefix: string, createdAt: number) =>
      t.driver.run(
        `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
         INSERT INTO episodes (id, kind, skill_id, project_id, scene_type, input_summary, candidates, selected_index, implicit, valence, importance, created_at, updated_at)
         SELECT ? || i, 'skill-run', 'continue', NULL, 'action', 'x', json_array('a'), 0, 'weak-positive', 0.4, 0.5, ?, ? FROM seq`,
        [n, prefix, createdAt, createdAt],
      );
    bulk(1_500, 'fresh-', t.clock.now() - 1_000);
    bulk(2, 'late-old-', t.clock.now() - 15 * DAY_MS);
    const result = await run(createProvider(settings(ok.url)));
    expect(result).toMatchObject({ summariesByModel: 5, summaryFallback: null });
    expect(t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM episodes WHERE id LIKE 'late-old-%' AND compressed = 1 AND summary LIKE 'Model summary%'")?.n).toBe(2);
  });

  it('with the model failing: the template summarises every episode, and the job records why without the memory’s text', async () => {
    const { summaries, run } = await oldEpisodes();
    fetched.length = 0;
    watchFetch();
    const result = await run(createProvider(settings(failing.url)));
    expect(result).toMatchObject({ summariesByModel: 0, summaryFallback: expect.stringMatching(/^MODEL_UNAVAILABLE/) });
    expect(JSON.stringify(result)).not.toMatch(/雨夜|harbour|信/);
    const rows = summaries();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.compressed === 1 && r.summary.startsWith('[skill-run] scene'))).toBe(true);
    // It stopped asking after the first failure.
    expect(failing.requests.filter(isSummaryAsk)).toHaveLength(1);
    expect(fetched.every((u) => u.startsWith(failing.url))).toBe(true);
  });

  it('with no model: the template, and nothing is called', async () => {
    const { summaries, run } = await oldEpisodes();
    fetched.length = 0;
    watchFetch();
    const result = await run(null);
    expect(result).toMatchObject({ summariesByModel: 0, summaryFallback: 'no-model', compressed: 3 });
    expect(summaries()).toHaveLength(3);
    expect(summaries().every((r) => r.compressed === 1 && r.summary.startsWith('[skill-run] scene'))).toBe(true);
    expect(fetched).toEqual([]);
  });

  it('an episode that changed while the model was writing keeps what it is: the summary is not written over it', async () => {
    const { t, engine, summaries } = await oldEpisodes();
    expectOk(await engine.call('lifecycle.run', { phases: ['decay'] }));
    const { items, next } = expectOk(await engine.call('lifecycle.summaryCandidates', { limit: 10 }));
    expect(next).toBeNull();
    expect(items).toHaveLength(3);
    // Meanwhile the first one is recalled (re-activated) and the second pinned ("keep this").
    t.driver.run("UPDATE episodes SET last_recalled_at = ?, recall_count = recall_count + 1, decay = 1 WHERE id = ?", [t.clock.now(), items[0]!.id]);
    expectOk(await engine.call('lifecycle.keep', { itemType: 'episode', itemId: items[1]!.id }));
    const res = expectOk(await engine.call('lifecycle.compressWith', { items: items.map((c) => ({ id: c.id, seen: c.seen, summary: `model words for ${c.id}` })) }));
    expect(res).toEqual({ compressed: [items[2]!.id], skipped: [items[0]!.id, items[1]!.id] });
    const rows = summaries();
    expect(rows.map((r) => r.compressed)).toEqual([0, 0, 1]);
    expect(rows[2]!.summary).toBe(`model words for ${items[2]!.id}`);
  });
});
