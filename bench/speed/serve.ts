import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fakeVectorOfText } from './fake-vectors';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css',
};

/** The scripted model's reply (send overhead, issue 16): two pieces, at once. */
export const SCRIPTED_REPLY = ['Use a mutex around ', 'processPayment.'];

/**
 * A local scripted OpenAI-compatible model that answers at once (POST /v1/chat/completions, streamed): the send
 * overhead is then the product's own, not a model's. Same origin as the page, so no CORS.
 */
function scriptedModel(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    for (const text of SCRIPTED_REPLY) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`);
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
}

/** The vectors mode's embedding endpoint (issue 18): deterministic vectors of the question texts, at once. */
export interface FakeEmbeddings {
  dims: number;
  seed: number;
  /** Requests answered (the harness checks the lane really asked). */
  requests: number;
}

function fakeEmbeddings(req: IncomingMessage, res: ServerResponse, fake: FakeEmbeddings): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    fake.requests++;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string | string[] };
    const input = Array.isArray(body.input) ? body.input : [body.input];
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVectorOfText(fake.seed, fake.dims, text) }));
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ object: 'list', model: body.model, data }));
  });
}

/** A tiny static server for the harness build on 127.0.0.1 (BENCH_PORT, default 4190: the app's e2e tests own 4173). */
export function serveStatic(root: string, port: number, fake?: FakeEmbeddings): Promise<Server> {
  const server = createServer((req, res) => {
    if (fake && req.method === 'POST' && req.url?.startsWith('/v1/embeddings')) return fakeEmbeddings(req, res, fake);
    if (req.method === 'POST' && req.url?.startsWith('/v1/chat/completions')) return scriptedModel(req, res);
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path === '/' ? 'index.html' : path);
    try {
      if (!file.startsWith(root) || !statSync(file).isFile()) throw new Error('not a file');
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
