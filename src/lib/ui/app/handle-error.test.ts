import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MODEL_SETTINGS } from '../../domain/llm/settings';
import { i18n } from '../i18n/i18n.svelte';
import { errorText, notices } from './handle-error.svelte';
import { modelSettings } from './model-settings.svelte';

/** English words left once names, commands and addresses (which stay as they are) are taken out. */
const hasLatinWords = (s: string) =>
  /[A-Za-z]{4,}/.test(s.replace(/https?:\/\/\S+|OLLAMA_ORIGINS=\S*|Engram|Ollama|CORS|API|ollama (serve|pull)|\/v1|qwen2\.5|localhost/g, ''));

describe('errorText: what a person reads, in their language', () => {
  beforeEach(() => modelSettings.set({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5', apiKey: 'sk-never-shown' }));
  afterEach(() => i18n.setLocale('en'));

  it.each([
    ['MODEL_UNAVAILABLE', 'cors', /OLLAMA_ORIGINS=/],
    ['MODEL_UNAVAILABLE', 'server-down', /模型服务/],
    ['MODEL_UNAVAILABLE', 'unknown-model', /模型“qwen2\.5”没有安装在 http:\/\/127\.0\.0\.1:11434 上/],
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

  it('English: the CORS advice names the variable to set; an unknown model names the model; never the key', () => {
    expect(errorText({ code: 'MODEL_UNAVAILABLE', message: 'x', details: { reason: 'cors' } })).toMatch(/OLLAMA_ORIGINS=/);
    const unknown = errorText({ code: 'MODEL_UNAVAILABLE', message: 'x', details: { reason: 'unknown-model' } });
    expect(unknown).toContain('“qwen2.5” is not installed on http://127.0.0.1:11434');
    expect(unknown).not.toContain('sk-never-shown');
  });

  it('a reason without its own text, or no reason, falls back to the code\'s text with the message', () => {
    expect(errorText({ code: 'MODEL_UNAVAILABLE', message: 'details here', details: { reason: 'something-new' } })).toContain('details here');
    expect(errorText({ code: 'NOT_FOUND', message: 'x' })).toMatch(/no longer exists/i);
  });
});

describe('notices: one on show at a time (issue 15)', () => {
  afterEach(() => {
    notices.dismissAll();
    vi.useRealTimers();
  });

  it('a notice waiting behind another starts to fade only once it is on show, so every one is seen', () => {
    vi.useFakeTimers();
    const profile = notices.push({ kind: 'info', text: 'Profile updated' }, 10_000);
    const remembered = notices.push({ kind: 'success', text: 'Remembered' }, 10_000);
    expect(notices.current?.id).toBe(remembered);
    vi.advanceTimersByTime(9_999);
    expect(notices.items.map((n) => n.id)).toEqual([profile, remembered]);
    vi.advanceTimersByTime(1);
    // The newest faded; the one behind it comes forward with its whole time still to go.
    expect(notices.current?.id).toBe(profile);
    vi.advanceTimersByTime(9_999);
    expect(notices.current?.id).toBe(profile);
    vi.advanceTimersByTime(1);
    expect(notices.current).toBeNull();
  });

  it('errors and sticky notices stay until dismissed', () => {
    vi.useFakeTimers();
    const error = notices.push({ kind: 'error', text: 'Failed' });
    vi.advanceTimersByTime(60_000);
    expect(notices.current?.id).toBe(error);
    notices.dismiss(error);
    expect(notices.current).toBeNull();
  });
});
