import { readFileSync } from 'node:fs';
import { recallAtK } from '../../lib/metrics';
import { runBaselines, type BaselineQuery } from '../baseline-runs';
import { parseIsoDay } from '../dates';
import { openBenchEngine } from '../engine-host';
import { prefixes, shownAt, type ItemScores, type Shown, type Slot } from '../evaluate';
import type { RetrievalConfig } from '../../../src/lib/domain/recall/config';
import { applyPass, MESSAGE_GAP_MS, PRODUCT_PASSES, type DatasetRun, type RunOptions } from './common';

/**
 * MADial-Bench zh (README "Metrics"): the user's memories go into the memory store, the dialogue before its
 * test turn into a chat, then `memory.retrieve` for the last user turn with that chat's sessionId — the product's
 * working-memory topic (from the recent user turns) is its way of weighting recent turns. recall@3/5/10 of
 * `relevant-id`. One fresh engine per dialogue.
 */
interface MadialMemory {
  id: string;
  'user-id': number;
  time: string;
  scene: string;
  emotion: string;
  event: string;
}

interface MadialDialogue {
  id: number;
  'user-id': number;
  dialogue: string[];
  'test-turn': number[];
  'relevant-id': number[];
}

const KS = [3, 5, 10] as const;
/** 喜好类 ("likes") is what the product calls a preference; every other scene is a fact. */
const PREFERENCE_SCENE = '喜好类';
/** Recency weights of the baselines' query: the most recent user turn 1, the one before 1/2, then 1/3 … */
const recencyWeight = (fromLast: number) => 1 / (fromLast + 1);

export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** `<Kiki>:"…"` → speaker and text (quotes and the trailing newline stripped). */
export function parseLine(line: string): { speaker: string; text: string } | null {
  const m = /^\s*<([^>]+)>\s*:?\s*([\s\S]*)$/.exec(line);
  if (!m) return null;
  const speaker = m[1] ?? '';
  if (speaker === 'BOD' || speaker === 'EOD') return null;
  const text = (m[2] ?? '').trim().replace(/^["“]/, '').replace(/["”]$/, '').trim();
  return text ? { speaker, text } : null;
}

/** The turns before the (first) test turn. */
export function turnsBeforeTest(d: MadialDialogue): { role: 'user' | 'assistant'; text: string }[] {
  const end = Math.min(...d['test-turn']);
  return d.dialogue
    .slice(0, end)
    .map(parseLine)
    .filter((t): t is { speaker: string; text: string } => t !== null)
    .map((t) => ({ role: t.speaker === 'Assistant' ? 'assistant' : 'user', text: t.text }));
}

function scores(shown: Shown, gold: ReadonlySet<string>): Record<string, number> {
  return Object.fromEntries(KS.map((k) => [`recall@${k}`, recallAtK(shownAt(shown, k).map((s) => s.unit), gold, k)]));
}

export async function runMadial(dataPath: string, memoryPath: string, opts: RunOptions = {}): Promise<DatasetRun> {
  const passes = opts.passes ?? PRODUCT_PASSES;
  const dialogues = readJsonl<MadialDialogue>(dataPath);
  const memories = readJsonl<Record<string, MadialMemory>>(memoryPath).flatMap((row) => Object.values(row));
  // The dialogues happen after everything remembered: one day after the newest memory.
  const now = Math.max(...memories.map((m) => parseIsoDay(m.time))) + 86_400_000;
  const items: ItemScores[] = [];
  const timings = new Map<string, number>();
  for (const d of dialogues) {
    const mine = memories.filter((m) => m['user-id'] === d['user-id']).sort((a, b) => parseIsoDay(a.time) - parseIsoDay(b.time) || Number(a.id) - Number(b.id));
    const retrieval: Partial<RetrievalConfig> = {};
    const engine = await openBenchEngine(parseIsoDay(mine[0]?.time ?? '2023-01-01'), { retrieval });
    const madialId = new Map<string, string>();
    let t0 = performance.now();
    for (const m of mine) {
      engine.clock.set(parseIsoDay(m.time));
      const created = await engine.call('memory.create', {
        content: m.event,
        category: m.scene === PREFERENCE_SCENE ? 'preference' : 'fact',
        tags: [m.scene, m.emotion],
      });
      madialId.set(created.id, String(m.id));
    }
    engine.clock.set(now);
    const turns = turnsBeforeTest(d);
    const { id: sessionId } = await engine.call('session.create', {});
    for (const [i, t] of turns.entries()) {
      engine.clock.set(now + i * MESSAGE_GAP_MS);
      await engine.call('message.append', { sessionId, role: t.role, content: t.text });
    }
    timings.set('engram.store', (timings.get('engram.store') ?? 0) + performance.now() - t0);
    await engine.embedAll();
    const userTurns = turns.filter((t) => t.role === 'user').map((t) => t.text);
    const query = userTurns.at(-1) ?? '';
    t0 = performance.now();
    const product = new Map<string, Shown>();
    for (const pass of passes) {
      applyPass(retrieval, pass);
      const byK = new Map<number, Slot[]>();
      for (const k of KS) {
        const res = await engine.call('memory.retrieve', { query, topN: k, sessionId });
        byK.set(k, res.items.map((it) => ({ unit: madialId.get(it.memory.id) ?? null })));
      }
      product.set(pass.name, { byK, deep: byK.get(10) ?? [] });
    }
    timings.set('engram.recall', (timings.get('engram.recall') ?? 0) + performance.now() - t0);
    engine.close();

    const gold = new Set(d['relevant-id'].map(String));
    const weighted: BaselineQuery = userTurns.map((text, i) => ({ text, weight: recencyWeight(userTurns.length - 1 - i) }));
    const baseline =
      opts.baselines === false
        ? new Map<string, string[][]>()
        : await runBaselines({ docs: mine.map((m) => ({ id: String(m.id), text: m.event })), language: 'zh', queries: [weighted], timings });
    const systems: ItemScores['systems'] = {};
    for (const [name, shown] of product) systems[name] = { shown: scores(shown, gold) };
    for (const [name, lists] of baseline) systems[name] = { shown: scores(prefixes((lists[0] ?? []).map((id) => ({ unit: id })), KS), gold) };
    items.push({ category: `user-${d['user-id']}`, group: `user-${d['user-id']}`, systems });
  }
  return {
    dataset: 'madial',
    items,
    timings,
    notes: [
      "memories: content = event, category preference for 喜好类 else fact, tags = [scene, emotion], created at the memory's time",
      'engram query: memory.retrieve(last user turn, topN = k, sessionId of the chat holding the turns before test-turn)',
      'baseline query: each user turn before test-turn, scores scaled to the best hit and weighted 1, 1/2, 1/3 … from the most recent',
      'baselines index the event text as character bigrams (FTS5 unicode61, MiniSearch and Orama with the same tokenizer)',
    ],
  };
}
