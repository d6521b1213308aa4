import { readFileSync } from 'node:fs';
import { recallAtK } from '../../lib/metrics';
import { runBaselines } from '../baseline-runs';
import { parseLocomoDate } from '../dates';
import { openBenchEngine } from '../engine-host';
import { DEEP_LIMIT, prefixes, shownAt, type ItemScores, type Shown, type Slot } from '../evaluate';
import type { RetrievalConfig } from '../../../src/lib/domain/recall/config';
import { applyPass, MESSAGE_GAP_MS, PRODUCT_PASSES, productShown, type DatasetRun, type RunOptions } from './common';

/**
 * LoCoMo (README "Metrics"): each dialog turn (dia_id) is a unit; QA items of categories 1–4; recall@5/@10 of the
 * evidence turns. One engine per conversation, one product session per LoCoMo session. The first speaker of a
 * session is the 'user', the other the 'assistant' (the product has two roles; who speaks first is who opened the
 * chat). Only `text` is stored: no speaker names (nobody types their own name into a chat) and no image captions
 * (BLIP's words, not the person's).
 */
interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
}

interface LocomoConversation {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence: string[]; category: number }[];
}

const KS = [5, 10] as const;

/** "D8:6; D9:17" is two ids; anything else that names no turn stays and simply cannot be found. */
export function normaliseEvidence(evidence: readonly string[]): string[] {
  return [...new Set(evidence.flatMap((e) => e.split(/[;,]/).map((s) => s.trim())).filter(Boolean))];
}

export function sessionsOf(conv: LocomoConversation): { date: number; turns: LocomoTurn[] }[] {
  const out: { n: number; date: number; turns: LocomoTurn[] }[] = [];
  for (const [key, value] of Object.entries(conv.conversation)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m || !Array.isArray(value)) continue;
    const date = conv.conversation[`${key}_date_time`];
    out.push({ n: Number(m[1]), date: parseLocomoDate(String(date)), turns: value as LocomoTurn[] });
  }
  return out.sort((a, b) => a.n - b.n);
}

function scores(shown: Shown, gold: ReadonlySet<string>, mode: 'shown' | 'top50'): Record<string, number> {
  const ranking = (k: number): (string | null)[] =>
    mode === 'shown' ? shownAt(shown, k).map((s) => s.unit) : shown.deep.flatMap((s) => (s.unit === null ? [] : [s.unit])).slice(0, k);
  return Object.fromEntries(KS.map((k) => [`recall@${k}`, recallAtK(ranking(k), gold, k)]));
}

export async function runLocomo(dataPath: string, opts: RunOptions = {}): Promise<DatasetRun> {
  const passes = opts.passes ?? PRODUCT_PASSES;
  const data = JSON.parse(readFileSync(dataPath, 'utf8')) as LocomoConversation[];
  const items: ItemScores[] = [];
  const timings = new Map<string, number>();
  let skipped = 0;
  for (const conv of data) {
    const sessions = sessionsOf(conv);
    const retrieval: Partial<RetrievalConfig> = {};
    const engine = await openBenchEngine(sessions[0]?.date ?? 0, { retrieval });
    const diaOf = new Map<number, string>();
    const docs: { id: string; text: string }[] = [];
    let t0 = performance.now();
    for (const s of sessions) {
      const { id: sessionId } = await engine.call('session.create', {});
      const userSpeaker = s.turns[0]?.speaker;
      for (const [i, turn] of s.turns.entries()) {
        if (!turn.text.trim()) continue;
        engine.clock.set(s.date + i * MESSAGE_GAP_MS);
        const role = turn.speaker === userSpeaker ? 'user' : 'assistant';
        const stored = await engine.call('message.append', { sessionId, role, content: turn.text });
        diaOf.set(stored.turnId, turn.dia_id);
        docs.push({ id: turn.dia_id, text: turn.text });
      }
      // The app's jobs worker makes a conversation's due rolling summaries soon after its turns are stored.
      await engine.call('summary.roll', { sessionId });
    }
    timings.set('engram.store', (timings.get('engram.store') ?? 0) + performance.now() - t0);
    // The questions come after the last session.
    const last = sessions.at(-1);
    engine.clock.set((last?.date ?? 0) + 86_400_000);
    await engine.embedAll();

    const questions = conv.qa.filter((q) => q.category >= 1 && q.category <= 4);
    const golds = questions.map((q) => new Set(normaliseEvidence(q.evidence)));
    t0 = performance.now();
    const product = new Map<string, Shown[]>();
    for (const pass of passes) {
      applyPass(retrieval, pass);
      const shown: Shown[] = [];
      for (const q of questions) shown.push(await productShown(engine, q.question, [...KS, DEEP_LIMIT], (h) => ({ unit: h.isSummary ? null : (diaOf.get(h.turnId ?? -1) ?? null) })));
      product.set(pass.name, shown);
    }
    timings.set('engram.recall', (timings.get('engram.recall') ?? 0) + performance.now() - t0);
    engine.close();

    const baseline = opts.baselines === false ? new Map<string, string[][]>() : await runBaselines({ docs, language: 'en', queries: questions.map((q) => q.question), timings });
    questions.forEach((q, i) => {
      const gold = golds[i] as Set<string>;
      if (gold.size === 0) {
        skipped++;
        return;
      }
      const systems: ItemScores['systems'] = {};
      for (const [name, shown] of product) systems[name] = { shown: scores(shown[i] as Shown, gold, 'shown'), top50: scores(shown[i] as Shown, gold, 'top50') };
      for (const [name, lists] of baseline) {
        const shown = prefixes((lists[i] ?? []).map((id): Slot => ({ unit: id })), KS);
        systems[name] = { shown: scores(shown, gold, 'shown'), top50: scores(shown, gold, 'top50') };
      }
      items.push({ category: String(q.category), group: conv.sample_id, systems });
    });
  }
  return {
    dataset: 'locomo',
    items,
    timings,
    notes: [
      'unit = dialog turn (dia_id); QA categories 1–4; evidence "D8:6; D9:17" split into two ids, other malformed ids kept (unfindable)',
      `${skipped} QA items without evidence skipped`,
      'first speaker of each session = user, the other = assistant; text only (no speaker names, no image captions)',
      `clock: each session's date_time (+${MESSAGE_GAP_MS / 1000} s per message); questions one day after the last session`,
    ],
  };
}
