import { EngineError } from '../errors';
import type { ModelFailure, ModelFailureReason } from './types';

/**
 * Model failures as errors a person can act on. Invariant: messages are built only from settings (the base
 * URL's origin, the model name), HTTP status codes and the server's model list — never the API key, never
 * prompt or reply text, never the server's error body (it may echo the prompt).
 */
export interface FailureContext {
  /** Origin of the configured base URL (no path, no credentials, no query). */
  origin: string;
  model: string;
  hasKey: boolean;
  /** The page's own origin in a browser, for the CORS advice. */
  pageOrigin?: string;
}

export interface FailureExtra {
  status?: number;
  /** Installed models, when the server could list them (unknown-model advice). */
  models?: string[];
  /** Which endpoint failed, e.g. '/chat/completions'. */
  endpoint?: string;
  /** false when a browser could not tell a down server from a CORS refusal (see probeReachable). */
  definite?: boolean;
  /** A redirect answered instead of the API. */
  redirected?: boolean;
  /** Timeout length, for the message. */
  timeoutMs?: number;
  /** The server reported an error after it had started streaming, or dropped the connection. */
  midStream?: boolean;
}

const MAX_LISTED = 12;

export function modelError(reason: ModelFailureReason, ctx: FailureContext, extra: FailureExtra = {}): EngineError {
  const code = reason === 'timeout' ? 'TIMEOUT' : 'MODEL_UNAVAILABLE';
  const details: Record<string, unknown> = { reason };
  if (extra.status !== undefined) details.status = extra.status;
  return new EngineError(code, describe(reason, ctx, extra), details);
}

export function canceledError(): EngineError {
  return new EngineError('CANCELED', 'The model request was stopped before it finished.');
}

/** The failure as data, for ConnectionReport. */
export function toModelFailure(error: EngineError): ModelFailure {
  const reason = (error.details?.reason ?? 'http-error') as ModelFailureReason;
  return { code: error.code === 'TIMEOUT' ? 'TIMEOUT' : 'MODEL_UNAVAILABLE', reason, message: error.message };
}

function describe(reason: ModelFailureReason, ctx: FailureContext, extra: FailureExtra): string {
  const at = `the model server at ${ctx.origin}`;
  const status = extra.status !== undefined ? ` (HTTP ${extra.status})` : '';
  switch (reason) {
    case 'server-down': {
      const base = `No model server answered at ${ctx.origin}. Start it (e.g. \`ollama serve\`) or change the base URL in Settings.`;
      // A browser reports a CORS refusal exactly like a closed port; when we could not tell, say both.
      return extra.definite === false && isLoopback(ctx.origin) ? `${base} ${corsAdvice(ctx, 'If it is running, it may be refusing this page: ')}` : base;
    }
    case 'cors':
      return `${cap(at)} is running but does not allow requests from this page (CORS). ${corsAdvice(ctx, '')}`;
    case 'unknown-model': {
      // Pulling is advice for a local server; a hosted API's models are chosen, not installed.
      const pull = isLoopback(ctx.origin) ? `Pull it (e.g. \`ollama pull ${ctx.model}\`)` : 'Check its name';
      const list = extra.models?.length ? ` or pick one of: ${listModels(extra.models)}.` : ' or choose another model in Settings.';
      return `The model '${ctx.model}' is not installed on ${at}. ${pull}${list}`;
    }
    case 'unauthorized':
      if (ctx.hasKey) return `${cap(at)} rejected the API key${status}. Check the key in Settings.`;
      return `${cap(at)} requires an API key${status}. Add it in Settings.${extra.status === 403 && isLoopback(ctx.origin) ? ` ${corsAdvice(ctx, 'If it is Ollama, a 403 means it does not allow this page: ')}` : ''}`;
    case 'http-error':
      return httpAdvice(at, status, extra);
    case 'bad-response':
      return `${cap(at)} answered${extra.endpoint ? ` ${extra.endpoint}` : ''}, but not as an OpenAI-compatible API would. Check that the base URL ends with /v1 (for Ollama: http://localhost:11434/v1), or try another model.`;
    case 'timeout': {
      const ms = extra.timeoutMs;
      const secs = ms === undefined ? ' in time' : ms >= 1000 ? ` within ${Number((ms / 1000).toFixed(1))} s` : ` within ${ms} ms`;
      return `${cap(at)} did not answer${secs}${status}. It may still be loading the model: try again, or raise the timeout in Settings.`;
    }
    case 'no-model-configured':
      return ctx.origin
        ? `No model is chosen for ${at}. Pick one in Settings ("Test connection" lists the installed models).`
        : 'No model is configured: Engram still records, remembers and summarises, but replies need a model. Connect an OpenAI-compatible server (e.g. Ollama) in Settings.';
  }
}

function httpAdvice(at: string, status: string, extra: FailureExtra): string {
  const code = extra.status ?? 0;
  if (extra.midStream) return `${cap(at)} stopped in the middle of its answer${status}. Check its log (the model may not fit in memory) and try again.`;
  if (extra.redirected) return `${cap(at)} redirected the request${status}. Put the final address of its /v1 API in Settings.`;
  if (code === 404) return `${cap(at)} has no ${extra.endpoint ?? 'such'} endpoint${status}. Check that the base URL ends with /v1 (for Ollama: http://localhost:11434/v1).`;
  if (code === 429) return `${cap(at)} is busy or limiting requests${status}. Wait a moment and try again.`;
  if (code >= 500) return `${cap(at)} failed while answering${status}. Check its log (the model may not fit in memory) and try again.`;
  return `${cap(at)} refused the request${status}. The model may not support what was asked (tools, JSON output or embeddings); check the server's log or try another model.`;
}

function corsAdvice(ctx: FailureContext, lead: string): string {
  const origin = ctx.pageOrigin ?? "this app's address";
  return `${lead}for Ollama, set OLLAMA_ORIGINS=${origin} and restart it; for other servers, allow that origin in their CORS settings.`;
}

function listModels(models: string[]): string {
  const shown = models.slice(0, MAX_LISTED).join(', ');
  return models.length > MAX_LISTED ? `${shown} (and ${models.length - MAX_LISTED} more)` : shown;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Defence in depth: even a message built from settings never carries the key (a key pasted into the model
 * field, say). Applied once, where the provider's errors leave it.
 */
export function redactSecret(error: EngineError, secret: string): EngineError {
  if (secret.length < 4 || !error.message.includes(secret)) return error;
  return new EngineError(error.code, error.message.split(secret).join('***'), error.details);
}

/** Loopback targets: where OLLAMA_ORIGINS advice applies. */
export function isLoopback(origin: string): boolean {
  try {
    const host = new URL(origin).hostname;
    return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host === '0.0.0.0' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** How an HTTP failure is classified. Unknown model: 404 (or 400) whose body says a model was not found. */
export function classifyStatus(status: number, body: string): ModelFailureReason {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 408 || status === 504) return 'timeout';
  if ((status === 404 || status === 400) && mentionsMissingModel(body)) return 'unknown-model';
  return 'http-error';
}

function mentionsMissingModel(body: string): boolean {
  return /model_not_found/i.test(body) || (/model/i.test(body) && /not found|does not exist|not installed|no such|try pulling/i.test(body));
}

const DEFINITELY_DOWN = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * Node's fetch names the socket error in `cause` (sometimes an AggregateError for dual-stack localhost):
 * then the server is certainly not answering. A browser's `TypeError: Failed to fetch` carries no cause.
 */
export function isDefinitelyDown(err: unknown): boolean {
  const seen = new Set<unknown>();
  let cur: unknown = err;
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur);
    const { code, errors, cause } = cur as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === 'string' && DEFINITELY_DOWN.has(code)) return true;
    if (Array.isArray(errors) && errors.some(isDefinitelyDown)) return true;
    cur = cause;
  }
  return false;
}
