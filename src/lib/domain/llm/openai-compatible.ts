import { EngineError } from '../errors';
import { silentLogger, type Logger } from '../log';
import { collectStream, streamChat } from './chat-stream';
import { modelError, redactSecret, toModelFailure } from './failures';
import { parseJsonReply } from './json-reply';
import { createModelHttp } from './model-http';
import { chatBody, completionSchema, embeddingsSchema, toChatResult } from './openai-wire';
import { createRequestControl } from './request-control';
import type { ModelSettings } from './settings';
import type { ChatRequest, ConnectionReport, ModelProvider, StreamEvent } from './types';

export interface ProviderOptions {
  /** Injected for tests and for hosts without a global fetch. */
  fetch?: typeof fetch;
  /** Failures are logged as codes, reasons and statuses only: never prompts, replies or the key. */
  logger?: Logger;
  /** Monotonic milliseconds, for latency. */
  now?: () => number;
  /** The page's origin (for CORS advice); read from `location` when there is one. */
  pageOrigin?: string;
}

/** "Test connection" lists models quickly or not at all: a server that needs longer is reported as slow. */
const CONNECTION_TEST_MS = 10_000;

/**
 * The provider for any OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM, hosted APIs):
 * POST /chat/completions (streamed or not), POST /embeddings, GET /models under the configured base URL.
 */
export function createOpenAiCompatibleProvider(settings: ModelSettings, opts: ProviderOptions = {}): ModelProvider {
  const pageOrigin = opts.pageOrigin ?? currentPageOrigin();
  const http = createModelHttp({
    settings,
    fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    ...(pageOrigin ? { pageOrigin } : {}),
  });
  const logger = opts.logger ?? silentLogger;
  const now = opts.now ?? (() => globalThis.performance?.now() ?? Date.now());
  const timeoutOf = (req: { timeoutMs?: number }) => req.timeoutMs ?? settings.timeoutMs;

  /** Every error leaves through here: key redacted, failure logged without content. Bugs pass unchanged. */
  const settle = (op: string, err: unknown): unknown => {
    if (!(err instanceof EngineError)) return err;
    const safe = redactSecret(err, settings.apiKey);
    if (safe.code !== 'CANCELED') {
      const status = typeof safe.details?.status === 'number' ? safe.details.status : null;
      logger.warn('llm.failed', { op, code: safe.code, reason: String(safe.details?.reason ?? ''), status });
    }
    return safe;
  };

  const requireModel = (embedding = false) => {
    if (!(embedding ? settings.embeddingModel || settings.model : settings.model)) throw modelError('no-model-configured', http.ctx);
  };

  const provider: ModelProvider = {
    kind: 'openai-compatible',
    canGenerate: true,

    chatStream(req: ChatRequest): AsyncIterable<StreamEvent> {
      return {
        async *[Symbol.asyncIterator]() {
          try {
            requireModel();
            yield* streamChat({ http, model: settings.model, req, timeoutMs: timeoutOf(req) });
          } catch (err) {
            throw settle('chat.stream', err);
          }
        },
      };
    },

    async chat(req) {
      const timeoutMs = timeoutOf(req);
      const control = createRequestControl({ ...(req.signal ? { signal: req.signal } : {}), timeoutMs });
      let answered = false;
      try {
        requireModel();
        const res = await http.open({ path: '/chat/completions', body: chatBody(settings.model, req, false), control, timeoutMs });
        answered = true;
        return toChatResult(await http.readJson(res, completionSchema, '/chat/completions'));
      } catch (err) {
        throw settle('chat', await http.failure(err, { control, path: '/chat/completions', timeoutMs, midStream: answered }));
      } finally {
        control.dispose();
      }
    },

    async json(req, schema) {
      const result = await provider.chat({ ...req, json: true });
      try {
        return parseJsonReply(result.text, schema);
      } catch (err) {
        throw settle('json', err);
      }
    },

    async embed(texts, embedOpts = {}) {
      if (texts.length === 0) return [];
      const timeoutMs = settings.timeoutMs;
      const control = createRequestControl({ ...(embedOpts.signal ? { signal: embedOpts.signal } : {}), timeoutMs });
      let answered = false;
      try {
        requireModel(true);
        const body = { model: settings.embeddingModel || settings.model, input: texts };
        const res = await http.open({ path: '/embeddings', body, control, timeoutMs });
        answered = true;
        const parsed = await http.readJson(res, embeddingsSchema, '/embeddings');
        // Order by `index` when given: the spec does not promise the data array is in input order.
        const rows = parsed.data.map((d, i) => ({ at: d.index ?? i, v: d.embedding })).sort((a, b) => a.at - b.at);
        if (rows.length !== texts.length || rows.some((r, i) => r.at !== i || r.v.length === 0)) {
          throw modelError('bad-response', http.ctx, { endpoint: '/embeddings' });
        }
        return rows.map((r) => r.v);
      } catch (err) {
        throw settle('embed', await http.failure(err, { control, path: '/embeddings', timeoutMs, midStream: answered }));
      } finally {
        control.dispose();
      }
    },

    async testConnection(testOpts = {}): Promise<ConnectionReport> {
      const started = now();
      const timeoutMs = Math.min(settings.timeoutMs, CONNECTION_TEST_MS);
      let models: string[];
      try {
        models = await http.listModels({ ...(testOpts.signal ? { signal: testOpts.signal } : {}), timeoutMs });
      } catch (err) {
        const safe = settle('testConnection', err);
        if (!(safe instanceof EngineError) || safe.code === 'CANCELED') throw safe;
        return { ok: false, models: [], modelFound: null, latencyMs: elapsed(started, now()), error: toModelFailure(safe) };
      }
      const latencyMs = elapsed(started, now());
      if (!settings.model) {
        return { ok: false, models, modelFound: null, latencyMs, error: toModelFailure(modelError('no-model-configured', http.ctx)) };
      }
      const modelFound = models.some((m) => sameModel(m, settings.model));
      if (modelFound) return { ok: true, models, modelFound, latencyMs };
      return { ok: false, models, modelFound, latencyMs, error: toModelFailure(modelError('unknown-model', http.ctx, { models })) };
    },
  };
  return provider;
}

/** Ollama lists 'llama3.2:latest' for a model the user calls 'llama3.2'. */
function sameModel(listed: string, wanted: string): boolean {
  return listed === wanted || listed === `${wanted}:latest` || `${listed}:latest` === wanted;
}

function elapsed(from: number, to: number): number {
  return Math.max(0, Math.round(to - from));
}

/** `location.origin` in a page or worker; undefined in Node. Read without DOM types (domain layer). */
function currentPageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}
