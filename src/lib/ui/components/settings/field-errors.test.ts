import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invalidArgument } from '../../../domain/validation';
import { settingsPatchSchema } from '../../../domain/settings';
import { fromIpcError, fromZodIssues } from './field-errors';

const form = z.strictObject({
  url: z.url(),
  name: z.string().max(5),
  count: z.number().int().min(1).max(10),
  kind: z.enum(['a', 'b']),
});

describe('fromZodIssues', () => {
  it.each([
    { value: { url: 'nope', name: 'x', count: 2, kind: 'a' }, field: 'url', want: { kind: 'url' } },
    { value: { url: 'http://x', name: 'toolong', count: 2, kind: 'a' }, field: 'name', want: { kind: 'tooLong', limit: 5 } },
    { value: { url: 'http://x', name: 'x', count: 0, kind: 'a' }, field: 'count', want: { kind: 'tooSmall', limit: 1 } },
    { value: { url: 'http://x', name: 'x', count: 11, kind: 'a' }, field: 'count', want: { kind: 'tooBig', limit: 10 } },
    { value: { url: 'http://x', name: 'x', count: null, kind: 'a' }, field: 'count', want: { kind: 'type' } },
    { value: { url: 'http://x', name: 'x', count: 1.5, kind: 'a' }, field: 'count', want: { kind: 'type' } },
    { value: { url: 'http://x', name: 'x', count: 2, kind: 'c' }, field: 'kind', want: { kind: 'choice' } },
  ])('$field: $want.kind', ({ value, field, want }) => {
    const res = form.safeParse(value);
    expect(res.success).toBe(false);
    const errors = fromZodIssues(res.error!.issues);
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]).toEqual(want);
  });

  it('names every failing field once', () => {
    const res = form.safeParse({ url: '', name: 'toolong', count: -1, kind: 'z' });
    expect(Object.keys(fromZodIssues(res.error!.issues)).sort()).toEqual(['count', 'kind', 'name', 'url']);
  });
});

describe('fromIpcError', () => {
  /** The engine's own error for an invalid settings.update, built the way the engine builds it. */
  function engineError(patch: unknown) {
    const res = z.strictObject({ patch: settingsPatchSchema }).safeParse({ patch });
    expect(res.success).toBe(false);
    const err = invalidArgument(res.error!);
    return { code: err.code, message: err.message, details: err.details };
  }

  it('puts an out-of-range setting at its own field, without the patch prefix', () => {
    const errors = fromIpcError(engineError({ 'memory.rag_top_n': 51 }), 'patch.');
    expect(errors).toEqual({ 'memory.rag_top_n': { kind: 'tooBig' } });
  });

  it('names several fields', () => {
    const errors = fromIpcError(engineError({ 'memory.rag_top_n': -1, MEMORY_EVICTION_THRESHOLD: 3, 'chat.context_limit': 'x' }), 'patch.');
    expect(errors).toEqual({
      'memory.rag_top_n': { kind: 'tooSmall' },
      MEMORY_EVICTION_THRESHOLD: { kind: 'tooSmall' },
      'chat.context_limit': { kind: 'type' },
    });
  });

  it.each([
    { error: { code: 'INTERNAL' as const }, why: 'not a validation failure' },
    { error: { code: 'INVALID_ARGUMENT' as const }, why: 'no field named' },
    { error: { code: 'INVALID_ARGUMENT' as const, details: { fields: [42] } }, why: 'malformed details' },
  ])('is null when $why', ({ error }) => {
    expect(fromIpcError(error, 'patch.')).toBeNull();
  });
});
