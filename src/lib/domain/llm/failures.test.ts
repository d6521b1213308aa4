import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { classifyStatus, isDefinitelyDown, isLoopback, modelError, redactSecret, toModelFailure } from './failures';

describe('classifyStatus', () => {
  it.each([
    [401, '', 'unauthorized'],
    [403, 'forbidden', 'unauthorized'],
    [404, '{"error":{"message":"model \\"x\\" not found, try pulling it first"}}', 'unknown-model'],
    [404, '{"error":{"code":"model_not_found"}}', 'unknown-model'],
    [400, '{"error":"model \'x\' does not exist"}', 'unknown-model'],
    [404, '404 page not found', 'http-error'],
    [408, '', 'timeout'],
    [504, '', 'timeout'],
    [500, 'model crashed', 'http-error'],
    [429, '', 'http-error'],
  ])('HTTP %i %s → %s', (status, body, reason) => {
    expect(classifyStatus(status, body)).toBe(reason);
  });
});

describe('isLoopback', () => {
  it.each([
    ['http://localhost:11434', true],
    ['http://127.0.0.1:8080', true],
    ['http://[::1]:11434', true],
    ['http://ollama.localhost', true],
    ['https://api.openai.com', false],
    ['http://192.168.1.20:11434', false],
    ['', false],
  ])('%s → %s', (origin, expected) => {
    expect(isLoopback(origin)).toBe(expected);
  });
});

describe('isDefinitelyDown', () => {
  const fetchFailed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
  it.each([
    ['Node: connection refused', fetchFailed(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })), true],
    ['Node: dual-stack localhost', fetchFailed(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })])), true],
    ['Node: unknown host', fetchFailed(Object.assign(new Error('x'), { code: 'ENOTFOUND' })), true],
    ['browser: no cause', new TypeError('Failed to fetch'), false],
    ['not an error', 'oops', false],
  ])('%s → %s', (_label, err, expected) => {
    expect(isDefinitelyDown(err)).toBe(expected);
  });
});

describe('modelError', () => {
  const ctx = { origin: 'http://localhost:11434', model: 'qwen2.5', hasKey: false };
  it('maps timeout to the TIMEOUT code and everything else to MODEL_UNAVAILABLE', () => {
    expect(modelError('timeout', ctx, { timeoutMs: 60_000 })).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('within 60 s') });
    expect(modelError('http-error', ctx, { status: 500 })).toMatchObject({ code: 'MODEL_UNAVAILABLE', details: { reason: 'http-error', status: 500 } });
  });

  it('lists at most a dozen installed models', () => {
    const models = Array.from({ length: 15 }, (_, i) => `m${i}`);
    expect(modelError('unknown-model', ctx, { models }).message).toMatch(/m11 \(and 3 more\)\.$/);
  });

  it('suggests pulling a missing model only from a local server', () => {
    expect(modelError('unknown-model', ctx).message).toBe(
      "The model 'qwen2.5' is not installed on the model server at http://localhost:11434. Pull it (e.g. `ollama pull qwen2.5`) or choose another model in Settings.",
    );
    expect(modelError('unknown-model', { ...ctx, origin: 'https://api.example' }).message).toMatch(/Check its name or choose another model/);
  });

  it('suggests OLLAMA_ORIGINS for a 403 from a local server when no key is set', () => {
    expect(modelError('unauthorized', { ...ctx, pageOrigin: 'https://app.test' }, { status: 403 }).message).toContain('OLLAMA_ORIGINS=https://app.test');
    expect(modelError('unauthorized', { ...ctx, origin: 'https://api.example' }, { status: 403 }).message).not.toContain('OLLAMA_ORIGINS');
  });

  it('turns into the data a connection report carries', () => {
    expect(toModelFailure(modelError('cors', ctx))).toEqual({ code: 'MODEL_UNAVAILABLE', reason: 'cors', message: expect.stringContaining('CORS') });
  });
});

describe('redactSecret', () => {
  it.each([
    ['the secret', 'the model abcd-1234 failed', 'abcd-1234', 'the model *** failed'],
    ['nothing when absent', 'all fine', 'abcd-1234', 'all fine'],
    ['nothing for an empty key', 'all fine', '', 'all fine'],
  ])('replaces %s', (_label, message, secret, expected) => {
    const out = redactSecret(new EngineError('MODEL_UNAVAILABLE', message, { reason: 'http-error' }), secret);
    expect(out.message).toBe(expected);
    expect(out.details).toEqual({ reason: 'http-error' });
  });
});
