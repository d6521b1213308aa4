/**
 * `npm run bench:recall -- --embeddings <base-url> --embedding-model <name> [--vector-cache <file.json>]` (issue 18):
 * the same data sets with meaning-based recall on, through the product's own path — after a conversation is stored,
 * the jobs worker's fill (`embeddingsJob`) runs against the engine, then the questions are asked; each question is
 * embedded by the engine's semantic lane. Every embedding goes through one function that first looks in the vector
 * cache (model + text → vector), so a second run, or a run on another machine given the file, needs no model server.
 * Without --embeddings the bench says "no embedding provider" and reports the lexical figures.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { embedWithProvider } from '../../src/lib/engine/embeddings';
import type { EmbedFn, EmbeddingEndpoint } from '../../src/lib/engine/embeddings/semantic-service';

export interface BenchEmbeddings {
  endpoint: EmbeddingEndpoint;
  embed: EmbedFn;
  /** Cache hits and texts sent to the server, for the report. */
  stats: { cached: number; fetched: number };
  save(): void;
}

const key = (model: string, text: string) => createHash('sha256').update(model).update('\u0000').update(text).digest('base64url').slice(0, 32);

export function benchEmbeddings(opts: { baseUrl: string; model: string; cacheFile?: string; apiKey?: string }): BenchEmbeddings {
  const endpoint: EmbeddingEndpoint = { baseUrl: opts.baseUrl, apiKey: opts.apiKey ?? '', model: opts.model, timeoutMs: 120_000 };
  const cache: Record<string, number[]> = opts.cacheFile && existsSync(opts.cacheFile) ? (JSON.parse(readFileSync(opts.cacheFile, 'utf8')) as Record<string, number[]>) : {};
  const stats = { cached: 0, fetched: 0 };
  let dirty = false;
  const embed: EmbedFn = async (ep, texts, o) => {
    const missing = [...new Set(texts.filter((t) => !cache[key(ep.model, t)]))];
    for (let i = 0; i < missing.length; i += 32) {
      const batch = missing.slice(i, i + 32);
      // One retry: a server closing an idle keep-alive connection fails the next POST once (fetch does not retry POSTs).
      const vectors = await embedWithProvider(ep, batch, o).catch(() => embedWithProvider(ep, batch, o));
      batch.forEach((t, j) => (cache[key(ep.model, t)] = (vectors[j] ?? []).map((x) => Math.round(x * 1e5) / 1e5)));
      stats.fetched += batch.length;
      dirty = true;
    }
    stats.cached += texts.length - missing.length;
    return texts.map((t) => cache[key(ep.model, t)] ?? []);
  };
  return {
    endpoint,
    embed,
    stats,
    save() {
      if (!opts.cacheFile || !dirty) return;
      mkdirSync(dirname(opts.cacheFile), { recursive: true });
      writeFileSync(opts.cacheFile, JSON.stringify(cache));
      dirty = false;
    },
  };
}
