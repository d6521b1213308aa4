import type { z } from 'zod';
import { EngineError } from '../errors';
import type { ModelSettings } from './settings';
import { canceledError, classifyStatus, isDefinitelyDown, modelError, type FailureContext } from './failures';
import { modelsSchema } from './openai-wire';
import { createRequestControl, type RequestControl } from './request-control';

/**
 * HTTP to the configured OpenAI-compatible server, and the translation of every way it can fail into an
 * EngineError (failures.ts). Invariant: the API key goes only into the Authorization header, only to URLs
 * built from the configured base URL, and redirects are not followed (a redirect could carry it elsewhere).
 */
export interface ModelHttp {
  readonly ctx: FailureContext;
  /** Send a request; resolves only with a 2xx response. */
  open(opts: { path: string; body?: unknown; control: RequestControl; timeoutMs: number }): Promise<Response>;
  /** Read and validate a JSON body. */
  readJson<S extends z.ZodType>(res: Response, schema: S, path: string): Promise<z.output<S>>;
  /** Any error thrown while talking to the server → the EngineError a person can act on. */
  failure(err: unknown, opts: { control: RequestControl; path: string; timeoutMs: number; midStream?: boolean }): Promise<EngineError>;
  listModels(opts: { signal?: AbortSignal; timeoutMs: number }): Promise<string[]>;
}

/** How long the no-cors reachability probe and the model list for advice may take. */
const PROBE_MS = 3000;
const ADVICE_MS = 5000;

export function createModelHttp(opts: { settings: ModelSettings; fetch: typeof fetch; pageOrigin?: string }): ModelHttp {
  const { settings } = opts;
  const base = new URL(settings.baseUrl);
  const ctx: FailureContext = {
    origin: base.origin,
    model: settings.model,
    hasKey: settings.apiKey !== '',
    ...(opts.pageOrigin ? { pageOrigin: opts.pageOrigin } : {}),
  };

  const urlOf = (path: string): string => {
    const u = new URL(base.href);
    u.pathname = `${u.pathname.replace(/\/+$/, '')}${path}`;
    return u.href;
  };

  /**
   * A browser reports a CORS refusal and a closed port alike (`TypeError: Failed to fetch`). A `no-cors`
   * request is not subject to CORS: if it gets an (opaque) answer, something is listening and the refusal
   * was CORS; if it fails too, nothing answered. Node names the socket error, so no probe is needed there.
   */
  const probeReachable = async (path: string): Promise<boolean> => {
    try {
      await opts.fetch(urlOf(path), { mode: 'no-cors', redirect: 'manual', signal: AbortSignal.timeout(PROBE_MS) });
      return true;
    } catch {
      return false;
    }
  };

  const http: ModelHttp = {
    ctx,
    async open({ path, body, control, timeoutMs }) {
      const headers: Record<string, string> = { Accept: body === undefined ? 'application/json' : 'application/json, text/event-stream' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (settings.apiKey) headers.Authorization = `Bearer ${settings.apiKey}`;
      let res: Response;
      try {
        res = await opts.fetch(urlOf(path), {
          method: body === undefined ? 'GET' : 'POST',
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          redirect: 'manual',
          signal: control.signal,
        });
      } catch (err) {
        throw await http.failure(err, { control, path, timeoutMs });
      }
      if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
        void res.body?.cancel().catch(() => {});
        throw modelError('http-error', ctx, { status: res.status || undefined, redirected: true, endpoint: path });
      }
      if (res.ok) return res;
      const text = await res.text().catch(() => '');
      if (control.stopped()) throw await http.failure(new Error('stopped'), { control, path, timeoutMs });
      const reason = classifyStatus(res.status, text);
      if (reason === 'unknown-model' && path !== '/models') {
        const models = await http.listModels({ signal: control.signal, timeoutMs: ADVICE_MS }).catch(() => undefined);
        // Name the model this request asked for (the embedding model may differ from the chat model).
        const asked = (body as { model?: unknown }).model;
        const named = typeof asked === 'string' ? { ...ctx, model: asked } : ctx;
        throw modelError(reason, named, { status: res.status, ...(models ? { models } : {}) });
      }
      throw modelError(reason, ctx, { status: res.status, endpoint: path, ...(reason === 'timeout' ? { timeoutMs } : {}) });
    },

    async readJson(res, schema, path) {
      let value: unknown;
      try {
        value = JSON.parse(await res.text());
      } catch (err) {
        if (err instanceof SyntaxError) throw modelError('bad-response', ctx, { endpoint: path });
        throw err;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw modelError('bad-response', ctx, { endpoint: path });
      return parsed.data;
    },

    async failure(err, { control, path, timeoutMs, midStream }) {
      const stopped = control.stopped();
      if (stopped === 'canceled') return canceledError();
      if (stopped === 'timeout') return modelError('timeout', ctx, { timeoutMs });
      if (err instanceof EngineError) return err;
      if (midStream) return modelError('http-error', ctx, { midStream: true, endpoint: path });
      if (isDefinitelyDown(err)) return modelError('server-down', ctx, { definite: true });
      return (await probeReachable(path)) ? modelError('cors', ctx) : modelError('server-down', ctx, { definite: false });
    },

    async listModels({ signal, timeoutMs }) {
      const control = createRequestControl({ ...(signal ? { signal } : {}), timeoutMs });
      try {
        const res = await http.open({ path: '/models', control, timeoutMs });
        const body = await http.readJson(res, modelsSchema, '/models');
        return body.data.map((m) => m.id);
      } catch (err) {
        throw await http.failure(err, { control, path: '/models', timeoutMs });
      } finally {
        control.dispose();
      }
    },
  };
  return http;
}
