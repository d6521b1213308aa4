/**
 * Seed 003's memory calls at scale, in the speed harness page (issue 17): 10,000 episodes recorded one at a
 * time through `episode.record` (as the Write page sends them), then `episode.query` (003 memory:episode:query)
 * and `rules.list` (memory:semantic:list) over them — each a full round trip page → worker → engine → page.
 * And what recording costs typing: the main thread's latency to handle the next event right after an
 * `episode.record` is sent (not awaited, as the Write page does) vs with nothing sent, and the chapter's
 * save (`document.update`) queued behind a record vs alone.
 */
import type { EngineCaller } from '../../src/lib/engine/client/caller';
import type { Input, Method, Output } from '../../src/lib/engine/protocol/contract';
import { createPrng } from '../lib/prng';
import { generateMemories, generateTurns } from '../lib/corpus';

const SCENES = ['dialogue', 'action', 'description', 'introspection', 'exposition', 'narration'] as const;

export interface EpisodeReport {
  count: number;
  recordMs: number[];
  queryMs: number[];
  rulesListMs: number[];
  /**
   * memory.list (20 items, as the stand-in phase asks it) timed alternately with rules.list, in the same minute: the
   * list ratio's denominator. Measured minutes apart, the two p95s (each a tail of a few samples of a ~2–3 ms call)
   * moved apart with whatever else the machine ran then (issue 17: the ratio went 0.75× → 2.67× between two quiet
   * runs while rules.list's p50 stayed 2.8 ms and memory.list's p95 went 4.81 → 2.30 ms).
   */
  memoryListPairedMs: number[];
  /**
   * memory.create timed right after every `pairEvery`-th episode.record, spread over the whole recording (the record
   * ratio's denominator), and memory.retrieve timed alternately with episode.query (the query ratio's). Paired for the
   * same reason as memory.list: the stand-in phase ran minutes earlier, at another moment of the machine's load.
   * Empty in a run without those samples (then the report falls back to the stand-in phase).
   */
  memoryCreatePairedMs: number[];
  memoryRetrievePairedMs: number[];
  /**
   * The same pairing again with as many memories as episodes (an additional reference, issue 17: the pairs above
   * search the stand-in phase's few hundred memories while episode.query searches every episode): episodeReference,
   * run last so no other figure sees the memories it adds. Absent when the run did not take it.
   */
  memoriesAtScale?: number;
  queryAtScaleMs?: number[];
  memoryRetrieveAtScaleMs?: number[];
  rules: number;
  /** Main-thread event latency right after sending a record vs after sending nothing (ms). */
  eventLagAloneMs: number[];
  eventLagAfterRecordMs: number[];
  /** The chapter's save round trip alone vs sent right behind a record. */
  saveAloneMs: number[];
  saveAfterRecordMs: number[];
  wallMs: number;
}

/** The time until a message posted now is handled on the main thread (what a keystroke waits for). */
function eventLag(): Promise<number> {
  const ch = new MessageChannel();
  const t0 = performance.now();
  return new Promise((resolve) => {
    ch.port1.onmessage = () => {
      resolve(performance.now() - t0);
      ch.port1.close();
    };
    ch.port2.postMessage(0);
  });
}

export async function episodeWorkload(opts: {
  engine: EngineCaller;
  seed: number;
  count: number;
  queries: number;
  lists: number;
  rules: number;
  samples: number;
  /** memory.retrieve's queries (the stand-in phase's, so the paired figure is the same call); none: not paired. */
  retrieveQueries?: readonly string[];
  setState: (text: string) => void;
}): Promise<EpisodeReport> {
  const t0 = performance.now();
  const must = async <M extends Method>(m: M, input: Input<M>): Promise<Output<M>> => {
    const res = await opts.engine.call(m, input);
    if (!res.ok) throw new Error(`${m}: ${res.error.code} ${res.error.message}`);
    return res.data;
  };
  const r = createPrng(opts.seed + 17);
  const texts = [...generateTurns({ seed: opts.seed + 17, count: 2_000 })].map((t) => t.content);
  const projects = [await must('project.create', { name: 'bench novel' }), await must('project.create', { name: 'bench notes' })];
  const docs = [
    await must('document.create', { projectId: projects[0]!.id, title: 'chapter', content: texts.slice(0, 40).join('\n\n') }),
    await must('document.create', { projectId: projects[1]!.id, title: 'notes', content: texts.slice(40, 80).join('\n\n') }),
  ];
  const episode = (i: number): Input<'episode.record'> => {
    const p = i % 2;
    const n = r.int(1, 3);
    const candidates = Array.from({ length: n }, () => r.pick(texts));
    return {
      skillId: r.chance(0.5) ? 'continue' : 'polish',
      projectId: projects[p]!.id,
      documentId: docs[p]!.id,
      input: r.pick(texts),
      candidates,
      selectedIndex: r.chance(0.15) ? -1 : r.int(0, n - 1),
      ...(r.chance(0.3) ? { finalText: `${r.pick(texts)}` } : {}),
    };
  };
  const recordMs: number[] = [];
  // About as many paired memory.create samples as queries, spread evenly over the recording; the memories they add
  // are deleted (untimed) before the queries so memory.retrieve searches the same memories as in the stand-in phase.
  const paired = (opts.retrieveQueries?.length ?? 0) > 0;
  const pairEvery = Math.max(1, Math.round(opts.count / Math.max(1, opts.queries)));
  const memoryInputs = paired ? generateMemories({ seed: opts.seed + 1717, count: Math.ceil(opts.count / pairEvery) }) : [];
  const memoryCreatePairedMs: number[] = [];
  const createdMemories: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const input = episode(i);
    let t = performance.now();
    await must('episode.record', input);
    recordMs.push(performance.now() - t);
    const m = paired && i % pairEvery === 0 ? memoryInputs[i / pairEvery] : undefined;
    if (m) {
      t = performance.now();
      createdMemories.push((await must('memory.create', m)).id);
      memoryCreatePairedMs.push(performance.now() - t);
    }
    if ((i + 1) % 2_000 === 0) {
      opts.setState(`episodes ${i + 1}`);
      console.log(`[bench] episodes ${i + 1}/${opts.count}`);
    }
  }
  for (let i = 0; i < opts.rules; i++) {
    await must('rules.add', i % 2 ? { rule: `bench rule ${i}: ${r.pick(texts).slice(0, 60)}` } : { rule: `项目规则 ${i}：${r.pick(texts).slice(0, 40)}`, scope: 'project', projectId: projects[0]!.id });
  }
  for (const id of createdMemories) await must('memory.delete', { id });
  const queryMs: number[] = [];
  const memoryRetrievePairedMs: number[] = [];
  const retrieveQueries = opts.retrieveQueries ?? [];
  for (let i = 0; i < opts.queries; i++) {
    const input: Input<'episode.query'> = { projectId: projects[i % 2]!.id, sceneType: r.pick(SCENES), text: r.pick(texts) };
    let t = performance.now();
    await must('episode.query', input);
    queryMs.push(performance.now() - t);
    const q = retrieveQueries[i % Math.max(1, retrieveQueries.length)];
    if (q !== undefined) {
      t = performance.now();
      await must('memory.retrieve', { query: q, topN: 5 });
      memoryRetrievePairedMs.push(performance.now() - t);
    }
  }
  const rulesListMs: number[] = [];
  const memoryListPairedMs: number[] = [];
  for (let i = 0; i < opts.lists; i++) {
    let t = performance.now();
    await must('rules.list', i % 2 ? {} : { projectId: projects[0]!.id });
    rulesListMs.push(performance.now() - t);
    t = performance.now();
    await must('memory.list', { limit: 20, offset: (i * 20) % 200 });
    memoryListPairedMs.push(performance.now() - t);
  }
  // Typing: alternate the two conditions so drift in the machine's load hits both alike.
  const eventLagAloneMs: number[] = [];
  const eventLagAfterRecordMs: number[] = [];
  const saveAloneMs: number[] = [];
  const saveAfterRecordMs: number[] = [];
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < opts.samples; i++) {
    eventLagAloneMs.push(await eventLag());
    pending.push(opts.engine.call('episode.record', episode(i)));
    eventLagAfterRecordMs.push(await eventLag());
    await Promise.all(pending.splice(0));
    const content = `${texts[i % texts.length]}\n${i}`;
    let t = performance.now();
    await must('document.update', { id: docs[0]!.id, content });
    saveAloneMs.push(performance.now() - t);
    const rec = opts.engine.call('episode.record', episode(i + 1));
    t = performance.now();
    await must('document.update', { id: docs[0]!.id, content: `${content}.` });
    saveAfterRecordMs.push(performance.now() - t);
    await rec;
  }
  return {
    count: opts.count,
    recordMs,
    queryMs,
    rulesListMs,
    memoryListPairedMs,
    memoryCreatePairedMs,
    memoryRetrievePairedMs,
    rules: (await must('rules.list', { projectId: projects[0]!.id })).length,
    eventLagAloneMs,
    eventLagAfterRecordMs,
    saveAloneMs,
    saveAfterRecordMs,
    wallMs: performance.now() - t0,
  };
}

/**
 * The reference at scale (issue 17), the last thing a run does: memories filled up to `memories` (memory.create,
 * untimed, a few in flight at a time; a run whose stall phase imported a memory backup has most of them already),
 * then episode.query over the episodes episodeWorkload recorded, timed alternately with memory.retrieve as there.
 */
export async function episodeReference(opts: {
  engine: EngineCaller;
  seed: number;
  memories: number;
  queries: number;
  retrieveQueries: readonly string[];
  setState: (text: string) => void;
}): Promise<Required<Pick<EpisodeReport, 'memoriesAtScale' | 'queryAtScaleMs' | 'memoryRetrieveAtScaleMs'>>> {
  const must = async <M extends Method>(m: M, input: Input<M>): Promise<Output<M>> => {
    const res = await opts.engine.call(m, input);
    if (!res.ok) throw new Error(`${m}: ${res.error.code} ${res.error.message}`);
    return res.data;
  };
  const projects = (await must('project.list', {})).filter((p) => p.name === 'bench novel' || p.name === 'bench notes');
  if (projects.length === 0 || opts.retrieveQueries.length === 0) throw new Error('episodeReference: run episodeWorkload (with retrieve queries) first');
  const held = (await must('memory.list', { limit: 1 })).total;
  const fill = generateMemories({ seed: opts.seed + 1718, count: Math.max(0, opts.memories - held) });
  for (let i = 0; i < fill.length; i += 16) await Promise.all(fill.slice(i, i + 16).map((m) => must('memory.create', m)));
  const memoriesAtScale = (await must('memory.list', { limit: 1 })).total;
  opts.setState(`memories ${memoriesAtScale}`);
  const r = createPrng(opts.seed + 1718);
  const texts = [...generateTurns({ seed: opts.seed + 17, count: 2_000 })].map((t) => t.content);
  const queryAtScaleMs: number[] = [];
  const memoryRetrieveAtScaleMs: number[] = [];
  for (let i = 0; i < opts.queries; i++) {
    let t = performance.now();
    await must('episode.query', { projectId: projects[i % projects.length]!.id, sceneType: r.pick(SCENES), text: r.pick(texts) });
    queryAtScaleMs.push(performance.now() - t);
    t = performance.now();
    await must('memory.retrieve', { query: opts.retrieveQueries[i % opts.retrieveQueries.length]!, topN: 5 });
    memoryRetrieveAtScaleMs.push(performance.now() - t);
  }
  return { memoriesAtScale, queryAtScaleMs, memoryRetrieveAtScaleMs };
}
