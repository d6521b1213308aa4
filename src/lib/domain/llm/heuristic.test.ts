import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHeuristicProvider } from './heuristic';
import { createProvider } from './index';
import { DEFAULT_MODEL_SETTINGS } from './settings';
import { caught, drain } from './test-helpers';
import type { ModelProvider } from './types';

const req = { messages: [{ role: 'user' as const, content: 'hello' }] };

describe('heuristic provider', () => {
  const p = createHeuristicProvider();

  it('says it cannot generate', () => {
    expect(p.kind).toBe('heuristic');
    expect(p.canGenerate).toBe(false);
  });

  it.each<[string, (p: ModelProvider) => Promise<unknown>]>([
    ['chat', (x) => x.chat(req)],
    ['chatStream', (x) => drain(x.chatStream(req))],
    ['json', (x) => x.json(req, z.object({}))],
    ['embed', (x) => x.embed(['hello'])],
  ])('%s fails plainly: replies need a model', async (_op, run) => {
    const err = await caught(() => run(p));
    expect(err.code).toBe('MODEL_UNAVAILABLE');
    expect(err.details).toEqual({ reason: 'no-model-configured' });
    expect(err.message).toMatch(/still records, remembers and summarises, but replies need a model/);
  });

  it('reports "no model" from the connection test without any network', async () => {
    expect(await p.testConnection()).toEqual({
      ok: false,
      models: [],
      modelFound: null,
      latencyMs: 0,
      error: { code: 'MODEL_UNAVAILABLE', reason: 'no-model-configured', message: expect.stringContaining('Connect an OpenAI-compatible server') },
    });
  });
});

describe('createProvider', () => {
  it.each([
    ['heuristic', false],
    ['openai-compatible', true],
  ] as const)('builds the %s provider from settings', (provider, canGenerate) => {
    const p = createProvider({ ...DEFAULT_MODEL_SETTINGS, provider });
    expect(p.kind).toBe(provider);
    expect(p.canGenerate).toBe(canGenerate);
  });
});
