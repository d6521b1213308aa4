import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte';
import { errorText } from './handle-error.svelte';

const hasLatinWords = (s: string) => /[A-Za-z]{4,}/.test(s.replace(/OLLAMA_ORIGINS|Engram|Ollama|CORS|ollama serve|\/v1/g, ''));

describe('errorText: what a person reads, in their language', () => {
  afterEach(() => i18n.setLocale('en'));

  it.each([
    ['MODEL_UNAVAILABLE', 'cors', /OLLAMA_ORIGINS=/],
    ['MODEL_UNAVAILABLE', 'server-down', /模型服务/],
    ['MODEL_UNAVAILABLE', 'unknown-model', /模型/],
    ['TIMEOUT', 'timeout', /./],
    ['DB_UNAVAILABLE', 'busy', /数据库/],
    ['DB_UNAVAILABLE', 'no-leader', /数据库/],
  ])('zh-CN: %s (%s) is translated by its reason, never the engine\'s English', (code, reason, pattern) => {
    i18n.setLocale('zh-CN');
    const text = errorText({ code, message: 'Pull it (e.g. `ollama pull qwen`) or set OLLAMA_ORIGINS', details: { reason } });
    expect(text).toMatch(pattern);
    expect(text).not.toContain('Pull it');
    expect(hasLatinWords(text), text).toBe(false);
  });

  it('English: the CORS advice names the variable to set', () => {
    expect(errorText({ code: 'MODEL_UNAVAILABLE', message: 'x', details: { reason: 'cors' } })).toMatch(/OLLAMA_ORIGINS=/);
  });

  it('a reason without its own text, or no reason, falls back to the code\'s text with the message', () => {
    expect(errorText({ code: 'MODEL_UNAVAILABLE', message: 'details here', details: { reason: 'something-new' } })).toContain('details here');
    expect(errorText({ code: 'NOT_FOUND', message: 'x' })).toMatch(/no longer exists/i);
  });
});
