import { extractKeywords } from '../text/keywords';
import { splitSentences } from '../text/sentences';
import type { Role } from './types';

export interface TurnText {
  turnNo: number;
  role: Role;
  content: string;
  symbols: readonly string[];
}

export interface ExtractiveSummary {
  summary: string;
  keySymbols: string[];
  keyDecisions: string[];
}

/** Cues that a sentence records a decision or a conclusion (002 "摘要包含关键符号和结论"). */
const DECISION_CUE =
  /决定|改为|改成|采用|换成|就用|结论|方案是|解决了|修复了|已修复|原因是|应该用|不再|\b(decided?|we'?ll|let'?s|going to|switch(ed)? to|use|fixed|solved|resolved|the (fix|cause|solution) (is|was)|root cause|should)\b/i;

/** 002 storage goal: a 10-turn summary under 500 bytes. We budget the text at 400 UTF-8 bytes. */
const SUMMARY_BYTES = 400;
const DECISION_BYTES = 120;
const MAX_DECISIONS = 4;
const MAX_SYMBOLS = 8;

const utf8 = new TextEncoder();
const bytes = (s: string) => utf8.encode(s).length;

function clipBytes(text: string, max: number): string {
  if (bytes(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (bytes(out + ch + '…') > max) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * An extractive summary of a block of turns, for when there is no model (or before the model's
 * summary arrives): the sentences that best cover the block's frequent keywords and symbols, in their
 * original order, plus the block's key symbols and the sentences that state decisions.
 */
export function summarizeTurns(turns: readonly TurnText[]): ExtractiveSummary {
  const symbolCounts = new Map<string, number>();
  for (const t of turns) for (const s of t.symbols) symbolCounts.set(s, (symbolCounts.get(s) ?? 0) + 1);
  const keySymbols = [...symbolCounts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_SYMBOLS)
    .map(([s]) => s);

  const sentences = turns.flatMap((t, turnIndex) =>
    splitSentences(t.content).map((text, i) => ({ text, role: t.role, order: turnIndex * 1000 + i, keywords: extractKeywords(text, { max: 12 }) })),
  );
  const df = new Map<string, number>();
  for (const s of sentences) for (const k of new Set(s.keywords.map((w) => w.toLowerCase()))) df.set(k, (df.get(k) ?? 0) + 1);

  const scored = sentences.map((s) => {
    const coverage = s.keywords.reduce((sum, k) => sum + (df.get(k.toLowerCase()) ?? 0), 0) / Math.sqrt(s.keywords.length + 1);
    const symbolHits = keySymbols.filter((sym) => s.text.includes(sym)).length;
    const decision = DECISION_CUE.test(s.text) ? 1 : 0;
    // The user's sentences carry the intent; questions alone say little once answered.
    const roleWeight = s.role === 'user' ? 1.1 : 1;
    const question = /[?？]$/.test(s.text) ? 0.6 : 1;
    return { ...s, score: (coverage + 2 * symbolHits + 2 * decision) * roleWeight * question, decision };
  });

  const chosen: typeof scored = [];
  let used = 0;
  for (const s of [...scored].sort((a, b) => b.score - a.score || a.order - b.order)) {
    const size = bytes(s.text) + 1;
    if (used + size > SUMMARY_BYTES) continue;
    chosen.push(s);
    used += size;
  }
  if (chosen.length === 0 && scored[0]) chosen.push({ ...scored[0], text: clipBytes(scored[0].text, SUMMARY_BYTES) });
  const summary = chosen
    .sort((a, b) => a.order - b.order)
    .map((s) => s.text)
    .join(' ');

  const keyDecisions = scored
    .filter((s) => s.decision)
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_DECISIONS)
    .sort((a, b) => a.order - b.order)
    .map((s) => clipBytes(s.text, DECISION_BYTES));

  return { summary, keySymbols, keyDecisions };
}

/**
 * 002 REQ-LTM-002 / SC-LTM-003: once a session has `after` turns, every complete block of `block`
 * turns that lies before the last `keepFull` turns gets a summary. Returns the blocks still missing.
 * Blocks start after the last summarised turn, or at `firstTurn` when older turns were deleted
 * (002 memory_cleanup --older-than keeps a conversation's recent turns).
 */
export function dueSummaryBlocks(opts: {
  turnCount: number;
  summarizedUpTo: number;
  /** The conversation's oldest stored turn (1 unless a cleanup removed older ones). */
  firstTurn?: number;
  after: number;
  block: number;
  keepFull: number;
}): { startTurn: number; endTurn: number }[] {
  if (opts.turnCount < opts.after) return [];
  const limit = opts.turnCount - opts.keepFull;
  const from = Math.max(opts.summarizedUpTo, (opts.firstTurn ?? 1) - 1) + 1;
  const out: { startTurn: number; endTurn: number }[] = [];
  for (let start = from; start + opts.block - 1 <= limit; start += opts.block) {
    out.push({ startTurn: start, endTurn: start + opts.block - 1 });
  }
  return out;
}
