import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from '../../domain/llm/settings';
import type { EmbeddingEndpoint } from '../../engine/embeddings/semantic-service';
import { createModelSync } from './model-sync';

/** A fake connection: counts what reaches each worker. */
function fakeConnection(opts: { engineRefuses?: () => boolean } = {}) {
  const sent = { engine: [] as (EmbeddingEndpoint | null)[], jobs: [] as (EmbeddingEndpoint | null)[], model: [] as ModelSettings[] };
  const sync = createModelSync({
    configureEngine: async (endpoint) => {
      sent.engine.push(endpoint);
      return !(opts.engineRefuses?.() ?? false);
    },
    configureJobs: (endpoint) => void sent.jobs.push(endpoint),
    setJobsModel: (settings) => void sent.model.push(settings),
  });
  return { sent, sync };
}

const settled = () => new Promise((r) => setTimeout(r, 0));
const withEmbeddings: ModelSettings = {
  ...DEFAULT_MODEL_SETTINGS,
  provider: 'openai-compatible',
  baseUrl: 'http://localhost:11434/v1',
  model: 'chat-a',
  embeddingModel: 'embed-a',
};

/** What a page load goes through today: the settings load, Dexie's liveQuery echoes them, the DB worker's roles, system.status answers. */
async function load(c: ReturnType<typeof fakeConnection>, settings: ModelSettings, roles: ('starting' | 'follower' | 'leader')[] = ['starting', 'follower', 'leader']) {
  c.sync.role(roles[0] as 'starting');
  c.sync.settings(settings);
  for (const r of roles.slice(1)) c.sync.role(r);
  c.sync.settings({ ...settings }); // liveQuery's first value: equal, a new object
  c.sync.engineReady(); // start()'s system.status
  c.sync.engineReady(); // the role event's system.status
  c.sync.engineReady(); // the leader's
  await settled();
}

describe('the page sends the model settings to the workers once per load and once per real change (issue 18)', () => {
  it('one embedding endpoint and one chat model at load, however many times the settings and the engine announce themselves', async () => {
    const c = fakeConnection();
    await load(c, withEmbeddings);
    expect(c.sent.engine).toEqual([{ baseUrl: withEmbeddings.baseUrl, apiKey: '', model: 'embed-a', timeoutMs: withEmbeddings.timeoutMs }]);
    expect(c.sent.jobs).toEqual(c.sent.engine);
    expect(c.sent.model).toEqual([withEmbeddings]);
  });

  it('the DB worker hears only once it answers (before that a call would wait for a leader, then go again)', async () => {
    const c = fakeConnection();
    c.sync.role('follower');
    c.sync.settings(withEmbeddings);
    await settled();
    expect(c.sent.engine).toEqual([]);
    expect(c.sent.jobs).toHaveLength(1); // the jobs worker keeps it until its scheduler starts
    c.sync.engineReady();
    await settled();
    expect(c.sent.engine).toHaveLength(1);
  });

  it('a setting the embedding endpoint does not use sends no endpoint; a real change sends one to each worker', async () => {
    const c = fakeConnection();
    await load(c, withEmbeddings);
    c.sync.settings({ ...withEmbeddings, contextWindow: 16384, model: 'chat-b' });
    c.sync.settings({ ...withEmbeddings, contextWindow: 16384, model: 'chat-b' }); // the save's liveQuery echo
    await settled();
    expect(c.sent.engine).toHaveLength(1);
    expect(c.sent.jobs).toHaveLength(1);
    expect(c.sent.model.map((m) => m.model)).toEqual(['chat-a', 'chat-b']);

    c.sync.settings({ ...withEmbeddings, contextWindow: 16384, model: 'chat-b', embeddingModel: 'embed-b' });
    c.sync.settings({ ...withEmbeddings, contextWindow: 16384, model: 'chat-b', embeddingModel: 'embed-b' });
    c.sync.engineReady();
    await settled();
    expect(c.sent.engine.map((e) => e?.model)).toEqual(['embed-a', 'embed-b']);
    expect(c.sent.jobs.map((e) => e?.model)).toEqual(['embed-a', 'embed-b']);

    c.sync.settings({ ...withEmbeddings, embeddingModel: '' });
    await settled();
    expect(c.sent.engine.at(-1)).toBeNull();
    expect(c.sent.engine).toHaveLength(3);
  });

  it("this tab's DB worker starting to lead again (a new engine, the endpoint gone) hears it once more; the jobs worker keeps it", async () => {
    const c = fakeConnection();
    await load(c, withEmbeddings, ['starting', 'follower']);
    expect(c.sent.engine).toHaveLength(1);
    c.sync.role('leader'); // the other tab closed: this worker opened the database itself
    c.sync.engineReady(); // the role event's system.status
    await settled();
    expect(c.sent.engine).toHaveLength(2);
    expect(c.sent.engine[1]).toEqual(c.sent.engine[0]);
    c.sync.role('leader'); // the same leader told again: nothing lost
    c.sync.engineReady();
    await settled();
    expect(c.sent.engine).toHaveLength(2);
    expect(c.sent.jobs).toHaveLength(1);
    expect(c.sent.model).toHaveLength(1);
  });

  it('an endpoint the engine refused goes again when it next answers', async () => {
    let refuse = true;
    const c = fakeConnection({ engineRefuses: () => refuse });
    await load(c, withEmbeddings, ['follower']);
    expect(c.sent.engine).toHaveLength(1);
    refuse = false;
    c.sync.engineReady();
    await settled();
    expect(c.sent.engine).toHaveLength(2);
    c.sync.engineReady();
    await settled();
    expect(c.sent.engine).toHaveLength(2);
  });
});
