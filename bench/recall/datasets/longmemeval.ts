import { readFileSync } from 'node:fs';
import { dedupeSlots, firstDistinct, ndcgAtK, recallAllAtK, recallAnyAtK, type Ranking } from '../../lib/metrics';
import { runBaselines } from '../baseline-runs';
import { parseLongMemEvalDate } from '../dates';
import { openBenchEngine } from '../engine-host';
import { DEEP_LIMIT, prefixes, shownAt, type ItemScores, type Shown, type Slot } from '../evaluate';
import type { RetrievalConfig } from '../../../src/lib/domain/recall/config';
import { applyPass, MESSAGE_GAP_MS, PRODUCT_PASSES, productShown, type DatasetRun, type RunOptions } from './common';

/**
 * LongMemEval-S (README "Metrics"): `_abs` questions skipped; a session is gold if its id starts with `answer_` and
 * it has a user turn with has_answer; gold turns are those user turns. A unit is one message (session id + its
 * index in the session); a question with no gold (single-session-assistant: the evidence is an assistant turn) is
 * not scored. One fresh engine per question with its haystack, stored in date order at `haystack_dates`, and the
 * question asked at `question_date` in a new chat (no current session).
 */
interface Question {
  question_id: string;
  question_type: string;
  question: string;
  question_date: string;
  haystack_dates: string[];
  haystack_session_ids: string[];
  haystack_sessions: { role: 'user' | 'assistant'; content: string; has_answer?: boolean }[][];
}

const KS = [5, 10] as const;
const turnUnit = (session: string, index: number) => `${session}#${index}`;
const sessionOfUnit = (unit: string) => unit.slice(0, unit.lastIndexOf('#'));

export function goldOf(q: Question): { sessions: Set<string>; turns: Set<string> } {
  const sessions = new Set<string>();
  const turns = new Set<string>();
  q.haystack_sessions.forEach((messages, s) => {
    const id = q.haystack_session_ids[s] ?? '';
    messages.forEach((m, i) => {
      if (m.role !== 'user' || !m.has_answer) return;
      turns.add(turnUnit(id, i));
      if (id.startsWith('answer_')) sessions.add(id);
    });
  });
  return { sessions, turns };
}

function scores(shown: Shown, gold: { sessions: Set<string>; turns: Set<string> }, mode: 'shown' | 'top50', haystackOf?: ReadonlyMap<string, string>): Record<string, number> {
  const turns = (k: number): Ranking =>
    mode === 'shown' ? shownAt(shown, k).map((s) => s.unit) : firstDistinct(shown.deep.map((s) => s.unit), k);
  // The product's conversation ranking when it gives one (issue 18: "which conversation was it" ranked as units),
  // else the sessions among the k turns shown (baselines).
  const sessions = (k: number): Ranking => {
    const own = mode === 'shown' ? shown.conversationsByK?.get(k) : undefined;
    if (own && haystackOf) return own.slice(0, k).map((c) => haystackOf.get(c) ?? null);
    return mode === 'shown' ? dedupeSlots(shownAt(shown, k).map((s) => s.session ?? null)) : firstDistinct(shown.deep.map((s) => s.session ?? null), k);
  };

  return {
    'session_recall_all@5': recallAllAtK(sessions(5), gold.sessions, 5),
    'session_recall_all@10': recallAllAtK(sessions(10), gold.sessions, 10),
    'session_recall_any@5': recallAnyAtK(sessions(5), gold.sessions, 5),
    'session_ndcg@10': ndcgAtK(sessions(10), gold.sessions, 10),
    'turn_recall_all@5': recallAllAtK(turns(5), gold.turns, 5),
    'turn_recall_all@10': recallAllAtK(turns(10), gold.turns, 10),
    'turn_recall_any@5': recallAnyAtK(turns(5), gold.turns, 5),
    'turn_ndcg@10': ndcgAtK(turns(10), gold.turns, 10),
  };
}

export async function runLongMemEval(dataPath: string, opts: { limit?: number } & RunOptions = {}): Promise<DatasetRun> {
  const passes = opts.passes ?? PRODUCT_PASSES;
  const data = (JSON.parse(readFileSync(dataPath, 'utf8')) as Question[]).filter((q) => !q.question_id.endsWith('_abs'));
  const items: ItemScores[] = [];
  const timings = new Map<string, number>();
  let noGold = 0;
  for (const q of data.slice(0, opts.limit ?? data.length)) {
    const gold = goldOf(q);
    if (gold.sessions.size === 0 || gold.turns.size === 0) {
      noGold++;
      continue;
    }
    // A session id listed twice (one question repeats a session verbatim at two dates) is stored once, at its first.
    const order = q.haystack_sessions
      .map((messages, s) => ({ messages, id: q.haystack_session_ids[s] ?? '', date: parseLongMemEvalDate(q.haystack_dates[s] ?? ''), s }))
      .filter((x, i, all) => all.findIndex((y) => y.id === x.id) === i)
      .sort((a, b) => a.date - b.date || a.s - b.s);
    const retrieval: Partial<RetrievalConfig> = {};
    const engine = await openBenchEngine(order[0]?.date ?? 0, { retrieval });
    const unitOf = new Map<number, string>();
    const haystackOf = new Map<string, string>();
    const docs: { id: string; text: string }[] = [];
    let t0 = performance.now();
    for (const session of order) {
      const { id: sessionId } = await engine.call('session.create', {});
      haystackOf.set(sessionId, session.id);
      for (const [i, m] of session.messages.entries()) {
        // An empty message cannot be sent in the app; it is no unit for anyone.
        if (!m.content.trim()) continue;
        engine.clock.set(session.date + i * MESSAGE_GAP_MS);
        const stored = await engine.call('message.append', { sessionId, role: m.role, content: m.content });
        unitOf.set(stored.turnId, turnUnit(session.id, i));
        docs.push({ id: turnUnit(session.id, i), text: m.content });
      }
      // The app's jobs worker makes a conversation's due rolling summaries soon after its turns are stored.
      await engine.call('summary.roll', { sessionId });
    }
    timings.set('engram.store', (timings.get('engram.store') ?? 0) + performance.now() - t0);
    engine.clock.set(parseLongMemEvalDate(q.question_date));
    await engine.embedAll();
    t0 = performance.now();
    const product = new Map<string, Shown>();
    for (const pass of passes) {
      applyPass(retrieval, pass);
      product.set(
        pass.name,
        await productShown(engine, q.question, [...KS, DEEP_LIMIT], (h) => ({
          unit: h.isSummary ? null : (unitOf.get(h.turnId ?? -1) ?? null),
          session: haystackOf.get(h.conversationId) ?? null,
        })),
      );
    }
    timings.set('engram.recall', (timings.get('engram.recall') ?? 0) + performance.now() - t0);
    engine.close();

    const baseline = opts.baselines === false ? new Map<string, string[][]>() : await runBaselines({ docs, language: 'en', queries: [q.question], timings });
    const systems: ItemScores['systems'] = {};
    for (const [name, shown] of product) systems[name] = { shown: scores(shown, gold, 'shown', haystackOf), top50: scores(shown, gold, 'top50', haystackOf) };
    for (const [name, lists] of baseline) {
      const shown = prefixes((lists[0] ?? []).map((id): Slot => ({ unit: id, session: sessionOfUnit(id) })), KS);
      systems[name] = { shown: scores(shown, gold, 'shown'), top50: scores(shown, gold, 'top50') };
    }
    items.push({ category: q.question_type, group: q.question_id, systems });
  }
  return {
    dataset: 'longmemeval',
    items,
    timings,
    notes: [
      'unit = one message (session id + index); _abs questions skipped; a session id listed twice in a haystack is stored once',
      `${noGold} questions without gold user turns (single-session-assistant) not scored, as in the README floor`,
      'session metrics (engram, k shown): the first k conversations of recall.search `conversations` (the session ranking); baselines and "top 50 → first k": the first k distinct sessions among the turns',
      `clock: haystack_dates (+${MESSAGE_GAP_MS / 1000} s per message), sessions stored in date order; recall at question_date`,
    ],
  };
}
