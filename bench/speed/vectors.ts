/**
 * The vectors mode's workload in the harness page (issue 18, `npm run bench:speed -- --vectors 384`): what storing a
 * vector for every turn costs, measured on the same database in one run, through the UI's own Comlink API.
 *
 *   1. store, lexical: `storeTurns` turns appended one at a time (no vectors, no embedding model configured)
 *   2. fill: a vector for every turn, the way the jobs worker stores them (embeddings.pending → vectors →
 *      embeddings.store), the vectors from fake-vectors.ts by turn id; database size before and after
 *   3. recall: alternately lexical only (no embedding model) and with the meaning lane (the harness server's
 *      /v1/embeddings embeds the question at once), each question asked twice in a row: the first ask includes
 *      the question's embedding round trip, the second finds it cached (the engine's own cost); and a third pass
 *      as the app asks after a pause in typing: `embeddings.prepare` (untimed: it runs while the person types), then
 *      the recall, timed against the lexical first asks
 *   4. store, with vectors: `storeTurns` more turns appended while a background loop embeds them as they arrive
 */
import type { EngineCaller } from '../../src/lib/engine/client/caller';
import type { Input, Method, Output } from '../../src/lib/engine/protocol/contract';
import { generateTurns, type CorpusQuery } from '../lib/corpus';
import type { SemanticTiming } from '../../src/lib/domain/recall/types';
import { FAKE_EMBEDDING_MODEL, fakeVectorOfId } from './fake-vectors';

export interface VectorsReport {
  dims: number;
  /** message.append round trips before any vector exists, and while the background fill embeds the new turns. */
  storeLexicalMs: number[];
  storeWithVectorsMs: number[];
  /** Turns the background fill embedded while the second store block ran. */
  embeddedDuringStore: number;
  fill: { vectors: number; wallMs: number; batches: number; dbBytesBefore: number; dbBytesAfter: number };
  /** The first recall with the meaning lane (until it is no longer 'index-loading': the index loads in the background). */
  firstMeaningRecallMs: number;
  recall: {
    lexicalFirstMs: number[];
    lexicalSecondMs: number[];
    meaningFirstMs: number[];
    meaningSecondMs: number[];
    /** With the meaning lane, the question embedded beforehand by `embeddings.prepare` (as typing pauses in the app). */
    meaningTypedMs: number[];
  };
  /** Every meaning recall reported the lane 'on' (not degraded), and how many results it had vs lexical. */
  meaningStates: Record<string, number>;
  resultsLexical: number;
  resultsMeaning: number;
  /** Where each meaning ask's lane spent its time (query.semantic.timing), first asks and cached repeats. */
  laneFirst: SemanticTiming[];
  laneCached: SemanticTiming[];
}

async function must<M extends Method>(engine: EngineCaller, method: M, input: Input<M>): Promise<Output<M>> {
  const res = await engine.call(method, input);
  if (!res.ok) throw new Error(`${method}: ${res.error.code} ${res.error.message}`);
  return res.data;
}

/** One embeddings.pending → embeddings.store round, as the jobs worker's embeddings job does it. */
async function fillBatch(engine: EngineCaller, opts: { seed: number; dims: number; limit: number }): Promise<number> {
  const { items } = await must(engine, 'embeddings.pending', { model: FAKE_EMBEDDING_MODEL, limit: opts.limit });
  if (items.length === 0) return 0;
  await must(engine, 'embeddings.store', {
    model: FAKE_EMBEDDING_MODEL,
    items: items.map((item) => ({ kind: item.kind, id: item.id, vector: fakeVectorOfId(opts.seed, opts.dims, item.id) })),
  });
  return items.length;
}

async function appendTurns(engine: EngineCaller, opts: { seed: number; skip: number; count: number }): Promise<number[]> {
  const out: number[] = [];
  let sessionId = '';
  let current = -1;
  let index = 0;
  for (const turn of generateTurns({ seed: opts.seed + 1, count: opts.skip + opts.count })) {
    if (index++ < opts.skip) continue;
    if (turn.session !== current) {
      sessionId = (await must(engine, 'session.create', {})).id;
      current = turn.session;
    }
    const t = performance.now();
    await must(engine, 'message.append', { sessionId, role: turn.role, content: turn.content });
    out.push(performance.now() - t);
  }
  return out;
}

export async function vectorWorkload(opts: {
  engine: EngineCaller;
  seed: number;
  dims: number;
  queries: CorpusQuery[];
  limit: number;
  rounds: number;
  storeTurns: number;
  /** The page's origin + /v1: the harness server's fake embedding endpoint. */
  baseUrl: string;
  setState: (text: string) => void;
}): Promise<VectorsReport> {
  const { engine } = opts;
  const endpoint = { baseUrl: opts.baseUrl, apiKey: '', model: FAKE_EMBEDDING_MODEL, timeoutMs: 10_000 };
  await must(engine, 'embeddings.configure', { endpoint: null });

  opts.setState('vectors: store, lexical');
  const storeLexicalMs = await appendTurns(engine, { seed: opts.seed, skip: 0, count: opts.storeTurns });

  opts.setState('vectors: fill');
  const dbBytesBefore = (await must(engine, 'system.status', {})).dbBytes;
  const t0 = performance.now();
  let vectors = 0;
  let batches = 0;
  for (;;) {
    const n = await fillBatch(engine, { seed: opts.seed, dims: opts.dims, limit: 256 });
    if (n === 0) break;
    vectors += n;
    batches++;
    if (batches % 40 === 0) {
      opts.setState(`vectors: filled ${vectors}`);
      console.log(`[bench] vectors stored ${vectors}`);
    }
  }
  const fill = { vectors, batches, wallMs: performance.now() - t0, dbBytesBefore, dbBytesAfter: (await must(engine, 'system.status', {})).dbBytes };

  opts.setState('vectors: recall');
  await must(engine, 'embeddings.configure', { endpoint });
  // The index loads in the background (from the database's open, and followed the fill): the first recall with the
  // lane should find it ready. Should it still be loading, ask again until it is (bounded), timing the wait.
  const tFirst = performance.now();
  let firstState = 'missing';
  for (let attempt = 0; attempt < 600; attempt++) {
    const first = await must(engine, 'recall.search', { query: 'warm-up: load the vectors', limit: opts.limit });
    firstState = first.query.semantic?.state ?? 'missing';
    if (first.query.semantic?.reason !== 'index-loading') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const firstMeaningRecallMs = performance.now() - tFirst;
  console.log(`[bench] first recall with the lane: ${firstState} after ${firstMeaningRecallMs.toFixed(0)} ms`);
  const recall = { lexicalFirstMs: [] as number[], lexicalSecondMs: [] as number[], meaningFirstMs: [] as number[], meaningSecondMs: [] as number[], meaningTypedMs: [] as number[] };
  const meaningStates: Record<string, number> = {};
  let resultsLexical = 0;
  let resultsMeaning = 0;
  const laneFirst: SemanticTiming[] = [];
  const laneCached: SemanticTiming[] = [];
  const ask = async (text: string) => {
    const t = performance.now();
    const data = await must(engine, 'recall.search', { query: text, limit: opts.limit });
    return { ms: performance.now() - t, data };
  };
  for (let round = 0; round < opts.rounds; round++) {
    for (const meaning of [false, true]) {
      await must(engine, 'embeddings.configure', { endpoint: meaning ? endpoint : null });
      for (const q of opts.queries) {
        const first = await ask(q.text);
        const second = await ask(q.text);
        if (meaning) {
          recall.meaningFirstMs.push(first.ms);
          recall.meaningSecondMs.push(second.ms);
          const state = first.data.query.semantic?.state ?? 'missing';
          meaningStates[state] = (meaningStates[state] ?? 0) + 1;
          resultsMeaning += first.data.results.length;
          if (first.data.query.semantic.timing) laneFirst.push(first.data.query.semantic.timing);
          if (second.data.query.semantic.timing) laneCached.push(second.data.query.semantic.timing);
        } else {
          recall.lexicalFirstMs.push(first.ms);
          recall.lexicalSecondMs.push(second.ms);
          resultsLexical += first.data.results.length;
        }
      }
    }
    // As the app asks: the question embedded while it was typed (a fresh cache: configure off, then on again).
    await must(engine, 'embeddings.configure', { endpoint: null });
    await must(engine, 'embeddings.configure', { endpoint });
    for (const q of opts.queries) {
      const prepared = await must(engine, 'embeddings.prepare', { text: q.text });
      // 'cached': the same question came earlier in the list (as typing it again would find it).
      if (prepared.state !== 'embedded' && prepared.state !== 'cached') throw new Error(`embeddings.prepare: ${prepared.state}`);
      recall.meaningTypedMs.push((await ask(q.text)).ms);
    }
  }

  opts.setState('vectors: store, with vectors');
  let stop = false;
  let embeddedDuringStore = 0;
  // The jobs worker's fill, following the new turns in the background (batches of 32, as EMBED_BATCH).
  const background = (async () => {
    while (!stop) {
      const n = await fillBatch(engine, { seed: opts.seed, dims: opts.dims, limit: 32 });
      embeddedDuringStore += n;
      if (n === 0) await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const storeWithVectorsMs = await appendTurns(engine, { seed: opts.seed, skip: opts.storeTurns, count: opts.storeTurns });
  stop = true;
  await background;
  return { dims: opts.dims, storeLexicalMs, storeWithVectorsMs, embeddedDuringStore, fill, firstMeaningRecallMs, recall, meaningStates, resultsLexical, resultsMeaning, laneFirst, laneCached };
}
