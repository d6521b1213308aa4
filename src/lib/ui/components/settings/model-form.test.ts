import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_SETTINGS } from '../../../domain/llm/settings';
import { parseModelForm, sameValues, toModelForm, type ModelForm } from './model-form';

const base: ModelForm = toModelForm(DEFAULT_MODEL_SETTINGS);

describe('parseModelForm', () => {
  it('round-trips the defaults unchanged', () => {
    const res = parseModelForm(base);
    expect(res).toEqual({ ok: true, value: DEFAULT_MODEL_SETTINGS });
  });

  it('keeps the settings the form does not show (name replacement) from what is stored', () => {
    const stored = { ...DEFAULT_MODEL_SETTINGS, pseudonymize: true, personNames: ['Lena'] };
    expect(parseModelForm({ ...base, model: 'qwen' }, stored)).toMatchObject({ ok: true, value: { model: 'qwen', pseudonymize: true, personNames: ['Lena'] } });
  });

  it('keeps what the person typed, trimmed, with the timeout in milliseconds', () => {
    const res = parseModelForm({
      ...base,
      provider: 'openai-compatible',
      baseUrl: ' http://127.0.0.1:8080/v1 ',
      model: ' qwen2.5:7b ',
      apiKey: 'sk-abc\n',
      timeoutSec: 2.5,
    });
    expect(res).toMatchObject({
      ok: true,
      value: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen2.5:7b', apiKey: 'sk-abc', timeoutMs: 2500 },
    });
  });

  it.each([
    { edit: { baseUrl: 'localhost:11434' }, field: 'baseUrl', want: { kind: 'url' } },
    { edit: { baseUrl: 'ftp://example.com/v1' }, field: 'baseUrl', want: { kind: 'url' } },
    { edit: { provider: 'anthropic' }, field: 'provider', want: { kind: 'choice' } },
    { edit: { model: 'm'.repeat(201) }, field: 'model', want: { kind: 'tooLong', limit: 200 } },
    { edit: { timeoutSec: 0.5 }, field: 'timeoutSec', want: { kind: 'tooSmall', limit: 1 } },
    { edit: { timeoutSec: 601 }, field: 'timeoutSec', want: { kind: 'tooBig', limit: 600 } },
    { edit: { timeoutSec: null }, field: 'timeoutSec', want: { kind: 'type' } },
    { edit: { contextWindow: 100 }, field: 'contextWindow', want: { kind: 'tooSmall', limit: 1024 } },
    { edit: { tokenRatio: 9 }, field: 'tokenRatio', want: { kind: 'tooBig', limit: 3 } },
  ])('puts the error at $field for $edit', ({ edit, field, want }) => {
    const res = parseModelForm({ ...base, ...edit });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.errors).toEqual({ [field]: want });
  });
});

describe('sameValues', () => {
  it.each([
    { edit: {}, same: true },
    { edit: { apiKey: 'x' }, same: false },
    { edit: { timeoutSec: null }, same: false },
    { edit: { timeoutSec: 60 }, same: true },
  ])('a form edited with $edit is unchanged: $same', ({ edit, same }) => {
    expect(sameValues(base, { ...base, ...edit })).toBe(same);
  });
});
