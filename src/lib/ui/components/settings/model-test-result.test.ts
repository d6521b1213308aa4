import { describe, expect, it } from 'vitest';
import type { ConnectionReport } from '../../../domain/llm/types';
import ModelTestResult from './model-test-result.svelte';
import { renderHtml, textOf } from './test-render';

const noop = () => {};

describe('model test result', () => {
  it('reports a working server, its latency and the installed model', () => {
    const report: ConnectionReport = { ok: true, models: ['llama3.2:latest', 'qwen2.5:7b'], modelFound: true, latencyMs: 42 };
    const text = textOf(renderHtml(ModelTestResult, { report, model: 'qwen2.5:7b', onpick: noop }));
    expect(text).toContain('Connected in 42 ms');
    expect(text).toContain('“qwen2.5:7b” is installed');
  });

  it('offers every listed model as a button that names it', () => {
    const report: ConnectionReport = { ok: true, models: ['a-model', 'b-model'], modelFound: true, latencyMs: 5 };
    const html = renderHtml(ModelTestResult, { report, model: 'a-model', onpick: noop });
    expect(html.match(/<button/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Use model b-model"');
  });

  it('says the model is missing and why, with the engine’s own advice', () => {
    const report: ConnectionReport = {
      ok: false,
      models: ['llama3.2:latest'],
      modelFound: false,
      latencyMs: 9,
      error: { code: 'MODEL_UNAVAILABLE', reason: 'unknown-model', message: "The model 'qwen' is not installed. Pull it (e.g. `ollama pull qwen`)" },
    };
    const text = textOf(renderHtml(ModelTestResult, { report, model: 'qwen', onpick: noop }));
    expect(text).toContain('Connection failed');
    expect(text).toContain('“qwen” is not installed on this server');
    expect(text).toContain('ollama pull qwen');
  });

  it('gives the OLLAMA_ORIGINS hint for a CORS refusal, and only then', () => {
    const cors: ConnectionReport = {
      ok: false, models: [], modelFound: null, latencyMs: 3,
      error: { code: 'MODEL_UNAVAILABLE', reason: 'cors', message: 'CORS' },
    };
    const down: ConnectionReport = { ...cors, error: { code: 'MODEL_UNAVAILABLE', reason: 'server-down', message: 'No model server answered' } };
    expect(textOf(renderHtml(ModelTestResult, { report: cors, model: 'm', onpick: noop }))).toContain('OLLAMA_ORIGINS=');
    const downText = textOf(renderHtml(ModelTestResult, { report: down, model: 'm', onpick: noop }));
    expect(downText).toContain('not answering');
    expect(downText).not.toContain('OLLAMA_ORIGINS=');
  });

  it('renders a hostile model name as text', () => {
    const report: ConnectionReport = { ok: true, models: ['<script>x</script>'], modelFound: false, latencyMs: 1 };
    const html = renderHtml(ModelTestResult, { report, model: 'm', onpick: noop });
    expect(html).not.toContain('<script>');
  });
});
