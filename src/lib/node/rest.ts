/**
 * Node-only. Seed 001 "Memory API Endpoints" over the engine, for local tools:
 *
 *   GET    /memory/long-term?limit&offset   memory.list      → { items, total, limit, offset, next_offset }
 *   GET    /memory/long-term/{id}           memory.get       → the entry, its history, its origin (404 if none)
 *   DELETE /memory/long-term/{id}           memory.delete    → { deleted: true, id } (404 if none)
 *   DELETE /memory/long-term?confirm=true   memory.clear     → counts; without confirm 428 MEMORY_CLEAR_CONFIRM_REQUIRED
 *   GET    /memory/working/{session_id}     workingMemory.get → 001 working memory (404 for an unknown session)
 *
 * Bound to 127.0.0.1 only, never 0.0.0.0. No CORS, on purpose: it serves programs on this machine, not
 * web pages. A request with an `Origin` header (a browser) or a foreign `Host` (DNS rebinding) is refused,
 * so no page the user visits can read or delete their memories through it. Working memory lives as
 * long as the server; idle ones are swept (and archived) every minute, as the app's jobs worker does.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineError, type ErrorCode, type IpcError } from '../domain/errors';
import type { Engine } from '../engine/engine';
import { contract, type Input } from '../engine/protocol/contract';
import { callerFor } from './engine-call';
import { clearShape, deleteShape, memoryDetailShape, memoryShape, workingMemoryShape } from './shapes';

export const REST_HOST = '127.0.0.1';
/** The page the engine returns when none is asked for (derived from the contract, so it cannot drift). */
const LIST_DEFAULTS = contract['memory.list'].input.parse({});
const SWEEP_EVERY_MS = 60_000;

/** Seed 001 says what each failure means to a client; everything unexpected is a 500. */
const STATUS: Partial<Record<ErrorCode, number>> = {
  INVALID_ARGUMENT: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  MEMORY_CLEAR_CONFIRM_REQUIRED: 428,
};

export const statusFor = (code: ErrorCode): number => STATUS[code] ?? 500;

/** A failure of the HTTP layer itself (path, method, caller), with its status. */
class HttpError extends EngineError {
  readonly status: number;
  constructor(opts: { status: number; code?: ErrorCode; message: string; field: string }) {
    super(opts.code ?? 'INVALID_ARGUMENT', opts.message, { fields: [opts.field] });
    this.status = opts.status;
  }
}

type Query = URLSearchParams;
/** A successful answer (200); failures are thrown and mapped to their status. */
type Reply = { body: unknown };

/** Parameter names a person typed are repeated only when they look like one of ours. */
const isName = (s: string) => /^[a-z_]{1,30}$/i.test(s);
const safeName = (s: string) => (isName(s) ? `\`${s}\`` : 'a parameter');

function onlyParams(query: Query, allowed: readonly string[]): void {
  for (const key of query.keys())
    if (!allowed.includes(key)) throw new HttpError({ status: 400, message: `Invalid query: ${safeName(key)} is not a parameter of this endpoint.`, field: isName(key) ? key : 'query' });
}

function intParam(query: Query, name: string): number | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw new HttpError({ status: 400, message: `Invalid \`${name}\`: expected a non-negative integer`, field: name });
  return Number(v);
}

async function listMemories(engine: Engine, query: Query): Promise<Reply> {
  onlyParams(query, ['limit', 'offset', 'category', 'source', 'query']);
  const input = {
    limit: intParam(query, 'limit'),
    offset: intParam(query, 'offset'),
    category: query.get('category') ?? undefined,
    source: query.get('source') ?? undefined,
    query: query.get('query') ?? undefined,
  } as Input<'memory.list'>;
  const page = await callerFor(engine)('memory.list', input);
  const limit = input.limit ?? LIST_DEFAULTS.limit;
  const offset = input.offset ?? LIST_DEFAULTS.offset;
  const next = offset + page.items.length;
  return { body: { items: page.items.map(memoryShape), total: page.total, limit, offset, next_offset: next < page.total ? next : null } };
}

async function clearMemories(engine: Engine, query: Query): Promise<Reply> {
  onlyParams(query, ['confirm']);
  const confirm = query.get('confirm');
  if (confirm !== null && confirm !== 'true' && confirm !== 'false')
    throw new HttpError({ status: 400, message: 'Invalid `confirm`: expected `true` or `false`', field: 'confirm' });
  return { body: clearShape(await callerFor(engine)('memory.clear', { confirm: confirm === 'true' })) };
}

/** The route table: path pattern → method → handler. `id` is the decoded last segment. */
async function route({ engine, method, url }: { engine: Engine; method: string; url: URL }): Promise<Reply> {
  const call = callerFor(engine);
  const segments = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  try {
    id = segments[2] === undefined ? undefined : decodeURIComponent(segments[2]);
  } catch {
    throw new HttpError({ status: 400, message: 'Invalid path: the id is not valid percent-encoding.', field: 'id' });
  }
  const allow = (methods: string[]) => {
    if (!methods.includes(method))
      throw new HttpError({ status: 405, message: `Invalid method: this endpoint accepts ${methods.join(', ')}.`, field: 'method' });
  };
  const [a, b] = segments;
  if (a === 'memory' && b === 'long-term' && segments.length === 2) {
    allow(['GET', 'DELETE']);
    return method === 'GET' ? listMemories(engine, url.searchParams) : clearMemories(engine, url.searchParams);
  }
  if (a === 'memory' && b === 'long-term' && segments.length === 3 && id !== undefined) {
    allow(['GET', 'DELETE']);
    onlyParams(url.searchParams, []);
    if (method === 'GET') return { body: memoryDetailShape(await call('memory.get', { id })) };
    return { body: deleteShape(await call('memory.delete', { id })) };
  }
  if (a === 'memory' && b === 'working' && segments.length === 3 && id !== undefined) {
    allow(['GET']);
    onlyParams(url.searchParams, []);
    return { body: workingMemoryShape(await call('workingMemory.get', { sessionId: id })) };
  }
  throw new HttpError({ status: 404, code: 'NOT_FOUND', message: 'No such endpoint: see GET/DELETE /memory/long-term and GET /memory/working/{session_id}.', field: 'path' });
}

/** Only programs on this machine: no browser (Origin), and the Host a local client sends. */
function checkCaller(req: IncomingMessage, port: number): void {
  if (req.headers.origin !== undefined)
    throw new HttpError({ status: 403, message: 'Browsers may not call this API (no CORS): use it from a local program.', field: 'Origin' });
  // Host names are case-insensitive (RFC 9110 §4.2.3): `LOCALHOST:7411` is this server too.
  const host = (req.headers.host ?? '').toLowerCase();
  if (host !== `${REST_HOST}:${port}` && host !== `localhost:${port}`)
    throw new HttpError({ status: 403, message: 'Invalid `Host` header: this API answers only to 127.0.0.1 and localhost.', field: 'Host' });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

function errorBody(e: IpcError) {
  const fields = e.details?.fields ?? (typeof e.details?.field === 'string' ? [e.details.field] : undefined);
  return { error: { code: e.code, message: e.message, ...(Array.isArray(fields) ? { fields } : {}) } };
}

export function createRestHandler(engine: Engine, port: () => number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    // Nothing here reads a body; let any that comes drain so the connection can be reused.
    req.resume();
    const run = async () => {
      checkCaller(req, port());
      return route({ engine, method: req.method ?? 'GET', url: new URL(req.url ?? '/', `http://${REST_HOST}`) });
    };
    run().then(
      (reply) => send(res, 200, reply.body),
      (err: unknown) => {
        if (err instanceof HttpError) return send(res, err.status, errorBody(err));
        if (err instanceof EngineError) return send(res, statusFor(err.code), errorBody(err));
        engine.env.log.error('rest.internal', { cause: err instanceof Error ? err.name : 'non-error thrown' });
        send(res, 500, errorBody({ code: 'INTERNAL', message: 'Engram hit an internal error. Your data is unchanged; please report it.' }));
      },
    );
  };
}

export interface RestServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0 = any free port) and sweeps idle working memories while it runs. */
export function startRestServer(opts: { engine: Engine; port: number; sweepEveryMs?: number }): Promise<RestServer> {
  let bound = opts.port;
  const server = createServer(createRestHandler(opts.engine, () => bound));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: opts.port, host: REST_HOST }, () => {
      server.off('error', reject);
      bound = (server.address() as AddressInfo).port;
      const sweep = setInterval(() => void opts.engine.call('workingMemory.sweep', {}), opts.sweepEveryMs ?? SWEEP_EVERY_MS);
      sweep.unref();
      resolve({
        server,
        port: bound,
        url: `http://${REST_HOST}:${bound}`,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(sweep);
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
