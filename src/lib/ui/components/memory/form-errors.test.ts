import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../../engine/testing';
import type { Input } from '../../../engine/protocol/contract';
import { formErrorsFromIpc } from './form-errors';

/** The engine's own INVALID_ARGUMENT answers, as the memory forms show them at their fields. */
describe('engine field errors on the memory forms', () => {
  it.each([
    { name: 'too many tags', patch: { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, want: { tags: { kind: 'tooMany' } } },
    { name: 'a tag too long', patch: { tags: ['x'.repeat(41)] }, want: { tags: { kind: 'tooLong' } } },
    { name: 'confidence above 1', patch: { confidence: 1.5 }, want: { confidence: { kind: 'range' } } },
    { name: 'a value over 8 KB', patch: { value: 'x'.repeat(9000) }, want: { value: { kind: 'jsonTooBig' } } },
    { name: 'content over 4000 characters', patch: { content: 'x'.repeat(4001) }, want: { content: { kind: 'tooLong' } } },
  ] satisfies { name: string; patch: Partial<Input<'memory.update'>>; want: unknown }[])('$name', async ({ patch, want }) => {
    const { engine } = await createTestEngine();
    const { id } = expectOk(await engine.call('memory.create', { content: 'note' }));
    const res = await engine.call('memory.update', { id, ...patch });
    expect(res.ok).toBe(false);
    expect(!res.ok && formErrorsFromIpc(res.error)).toEqual(want);
  });

  it('keeps the engine message for a rule it checks itself (the content length setting)', async () => {
    const { engine } = await createTestEngine();
    expectOk(await engine.call('settings.update', { patch: { 'memory.atomic_content_max_length': 40 } }));
    const res = await engine.call('memory.create', { content: 'y'.repeat(41) });
    const errors = !res.ok ? formErrorsFromIpc(res.error) : null;
    expect(errors?.content?.kind).toBe('invalid');
    expect(errors?.content?.message).toContain('at most 40');
    expect(errors?.content?.message).not.toContain('yyy');
  });

  it('leaves other failures to the notice', async () => {
    const { engine } = await createTestEngine();
    const res = await engine.call('memory.update', { id: 'missing', content: 'x' });
    expect(!res.ok && res.error.code).toBe('NOT_FOUND');
    expect(!res.ok && formErrorsFromIpc(res.error)).toBeNull();
  });
});
