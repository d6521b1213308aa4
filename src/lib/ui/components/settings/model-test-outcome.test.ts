import { describe, expect, it } from 'vitest';
import type { ConnectionReport } from '../../../domain/llm/types';
import { resultKey, testOutcome } from './model-test-outcome';
import ModelTestResult from './model-test-result.svelte';
import { renderHtml, textOf } from './test-render';
import { i18n } from '../../i18n/i18n.svelte';

const noModel: ConnectionReport = {
  ok: false,
  models: ['llama3.2', 'qwen2.5:7b'],
  modelFound: null,
  latencyMs: 45,
  error: { code: 'MODEL_UNAVAILABLE', reason: 'no-model-configured', message: 'No model is configured: pick one in Settings.' },
};

describe('issue 15: what "Test connection" says', () => {
  it.each([
    { name: 'listed models, empty model field → connected, pick one', report: noModel, model: '', want: { tone: 'warn', headline: 'connectedPick', showReason: false, modelFound: null } },
    { name: 'a model picked from the list since → connected', report: noModel, model: 'qwen2.5:7b', want: { tone: 'ok', headline: 'ok', showReason: false, modelFound: true } },
    { name: 'a model typed that is not listed → still pick one', report: noModel, model: 'mistral', want: { tone: 'warn', headline: 'connectedPick', modelFound: false } },
    {
      name: 'server down → failed, with the reason',
      report: { ok: false, models: [], modelFound: null, latencyMs: 3, error: { code: 'MODEL_UNAVAILABLE', reason: 'server-down', message: 'x' } } as ConnectionReport,
      model: 'llama3.2',
      want: { tone: 'fail', headline: 'failed', showReason: true },
    },
    {
      name: 'unknown model, then one from the list picked → connected',
      report: { ...noModel, modelFound: false, error: { code: 'MODEL_UNAVAILABLE', reason: 'unknown-model', message: 'x' } } as ConnectionReport,
      model: 'llama3.2',
      want: { tone: 'ok', headline: 'ok', modelFound: true },
    },
    { name: 'working server and model', report: { ok: true, models: ['a'], modelFound: true, latencyMs: 4 }, model: 'a', want: { tone: 'ok', headline: 'ok', showReason: false } },
  ])('$name', ({ report, model, want }) => {
    expect(testOutcome(report, model)).toMatchObject(want);
  });

  it('renders "Connected — 2 models; pick one" in both languages, never "failed" or "pick one in Settings"', () => {
    const text = textOf(renderHtml(ModelTestResult, { report: noModel, model: '', onpick: () => {} }));
    expect(text).toContain('Connected — 2 models on this server; pick one below.');
    expect(text).not.toContain('failed');
    expect(text).not.toContain('in Settings');
    i18n.setLocale('zh-CN');
    try {
      expect(textOf(renderHtml(ModelTestResult, { report: noModel, model: '', onpick: () => {} }))).toContain('已连接——此服务器上有 2 个模型');
    } finally {
      i18n.setLocale('en');
    }
  });

  it('a result belongs to one server address, key and provider; the model field does not make it stale', () => {
    const a = { provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', apiKey: '' };
    expect(resultKey({ ...a, baseUrl: ' http://localhost:11434/v1 ' })).toBe(resultKey(a));
    expect(resultKey({ ...a, baseUrl: 'http://localhost:8080/v1' })).not.toBe(resultKey(a));
    expect(resultKey({ ...a, apiKey: 'k' })).not.toBe(resultKey(a));
    expect(resultKey({ ...a, provider: 'heuristic' })).not.toBe(resultKey(a));
  });
});
