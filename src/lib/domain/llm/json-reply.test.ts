import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngineError } from '../errors';
import { extractJson, parseJsonReply } from './json-reply';

describe('extractJson', () => {
  it.each([
    ['plain', '{"a":1}', { a: 1 }],
    ['a fence with language', '```json\n{"a":1}\n```', { a: 1 }],
    ['a bare fence with prose around', 'Sure!\n```\n[1,2]\n```\nDone.', [1, 2]],
    ['prose around an object', 'The answer is {"a":{"b":2}} as asked.', { a: { b: 2 } }],
    ['a think block first', '<think>maybe {"a":0}</think>\n{"a":1}', { a: 1 }],
    ['an array', ' [ {"k":"v"} ] ', [{ k: 'v' }]],
    ['nothing', 'no json here', undefined],
    ['broken', '{"a":', undefined],
  ])('%s', (_label, text, expected) => {
    expect(extractJson(text)).toEqual(expected);
  });
});

describe('parseJsonReply', () => {
  const schema = z.object({ facts: z.array(z.object({ key: z.string(), confidence: z.number().min(0).max(1) })) });

  it('returns the validated value', () => {
    expect(parseJsonReply('{"facts":[{"key":"lang","confidence":0.9}]}', schema)).toEqual({ facts: [{ key: 'lang', confidence: 0.9 }] });
  });

  it.each([
    ['a field out of range', '{"facts":[{"key":"lang","confidence":7}]}', 'facts[0].confidence'],
    ['the wrong root', '"just a string"', '(root)'],
  ])('names the bad field for %s, without echoing the text', (_label, text, field) => {
    let err: unknown;
    try {
      parseJsonReply(text, schema);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('MODEL_UNAVAILABLE');
    expect((err as EngineError).details).toMatchObject({ reason: 'bad-response' });
    expect((err as EngineError).message).toContain(`\`${field}\``);
    expect((err as EngineError).message).not.toContain('lang');
  });
});
