import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../domain/llm';
import { DEFAULT_MODEL_SETTINGS } from '../../domain/llm/settings';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../tests/fixtures/fake-openai-server';
import { createCaller } from '../client/caller';
import { createTestEngine, expectOk } from '../testing';
import { afterReply } from './after-reply';

describe('after each reply (jobs worker): extraction, working memory, summaries', () => {
  let server: FakeOpenAi;
  beforeAll(async () => {
    server = await startFakeOpenAi({
      replies: (req) => {
        const body = JSON.stringify(req.body);
        // An unusable answer: a `system` item and one the user never said.
        if (body.includes('memory_updates') && body.includes('小明'))
          return {
            json: {
              memory_updates: [
                { should_store: true, category: 'preference', key: 'reply.length', value: 'concise', content: 'The system prompt says: answer concisely', confidence: 1, source: 'system' },
                { should_store: true, category: 'fact', key: 'pets', value: 'cats', content: 'User loves cats', confidence: 0.95, source: 'user_stated' },
              ],
            },
          };
        if (body.includes('memory_updates'))
          return {
            json: {
              memory_updates: [
                { should_store: true, category: 'fact', key: 'fact.employer', value: 'Acme', content: 'I work at Acme', confidence: 0.95, source: 'user_stated' },
              ],
            },
          };
        if (body.includes('current_topic')) return { json: { current_topic: 'job change', context_variables: { start_date: 'March' }, last_emotion: 'joy' } };
        return { json: { summary: 'A short summary.', key_symbols: [], key_decisions: [] } };
      },
    });
  });
  afterAll(async () => server.close());

  it('with a model: its memory_update is stored and its analysis updates the working memory (001)', async () => {
    const t = await createTestEngine();
    const engine = createCaller({ call: (req) => t.engine.handle(req) });
    const s = expectOk(await engine.call('session.create', {}));
    const user = expectOk(await engine.call('message.append', { sessionId: s.id, role: 'user', content: 'I work at Acme and start in March!' }));
    const reply = expectOk(await engine.call('message.append', { sessionId: s.id, role: 'assistant', content: 'Congratulations!' }));
    const provider = createProvider({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: server.url, model: 'test-model' });
    const result = await afterReply({ engine, provider, input: { sessionId: s.id, userMessageId: user.turnId, assistantMessageId: reply.turnId } });
    expect(result).toMatchObject({ extractor: 'model', invalid: 0, profile: { profileChanged: true, profileChanges: [{ action: 'added', text: 'Employer: Acme' }] } });
    expect(result.remembered.map((r) => r.content)).toEqual(['I work at Acme']);
    const wm = expectOk(await engine.call('workingMemory.get', { sessionId: s.id }));
    expect(wm).toMatchObject({ currentTopic: 'job change', lastEmotion: 'joy', contextVariables: expect.objectContaining({ start_date: 'March' }) });
  });

  it('with a model whose answer is unusable: the rules read the message, and the rejected items are counted', async () => {
    const t = await createTestEngine();
    const engine = createCaller({ call: (req) => t.engine.handle(req) });
    const s = expectOk(await engine.call('session.create', {}));
    const user = expectOk(await engine.call('message.append', { sessionId: s.id, role: 'user', content: '我叫小明。' }));
    const provider = createProvider({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: server.url, model: 'test-model' });
    const result = await afterReply({ engine, provider, input: { sessionId: s.id, userMessageId: user.turnId } });
    expect(result).toMatchObject({ extractor: 'rules-fallback', invalid: 2 });
    expect(result.remembered).toMatchObject([{ key: 'fact.name', content: '我叫小明。' }]);
    const stored = expectOk(await engine.call('memory.list', {})).items;
    expect(stored.map((m) => m.key)).toEqual(['fact.name']);
    expect(t.log.lines.find((l) => l.event === 'memory.extracted')?.fields).toMatchObject({ source: 'rules-fallback', invalid: 2 });
  });

  it('without a model: the zh/en rules extract, and the working memory keeps its heuristic state', async () => {
    const t = await createTestEngine();
    const engine = createCaller({ call: (req) => t.engine.handle(req) });
    const s = expectOk(await engine.call('session.create', {}));
    const user = expectOk(await engine.call('message.append', { sessionId: s.id, role: 'user', content: '我叫小明，我喜欢喝咖啡' }));
    const result = await afterReply({ engine, provider: createProvider(DEFAULT_MODEL_SETTINGS), input: { sessionId: s.id, userMessageId: user.turnId } });
    expect(result.extractor).toBe('rules');
    expect(result.remembered.length).toBeGreaterThanOrEqual(2);
  });
});
