/**
 * Full → Compact (seed 004 "历史结果 Full → Compact 压缩并可按需回溯"): once a history passes its
 * threshold, context uses a structured compact summary; the full rows stay in their table and the
 * summary points back to them (`fullRef`). This module decides and shapes; the engine stores the
 * summary (the `summaries` table, ARCHITECTURE §4) and loads the full rows only on demand.
 *
 *   turns 1 ─────────────── 40 │ 41 ── 45
 *   └─ compact {1..40, fullRef: messages#ids} ─┘ └ kept in full (recent)
 */
import { z } from 'zod';
import { parseOrThrow } from '../validation';
import type { ContextItem } from './types';

export interface CompactSummary {
  kind: 'compact';
  /** Inclusive range of the entries it replaces (turn numbers or run numbers). */
  range: { from: number; to: number };
  topics: string[];
  decisions: string[];
  openQuestions: string[];
  entities: string[];
  /** The rendered text injected into context (see renderCompactText). */
  text: string;
  /** Where the full entries are: table and row ids (or record ids, e.g. run ids), so the inspector can open them. */
  fullRef: { table: string; ids: (number | string)[] };
}

/** 004: compaction triggers when either the token count or the entry count passes its threshold. */
export function needsCompaction(opts: { entries: number; tokens: number; maxEntries: number; maxTokens: number }): boolean {
  return opts.entries > opts.maxEntries || opts.tokens > opts.maxTokens;
}

export interface HistoryEntry {
  /** Row id in `fullRef.table`. */
  id: number;
  /** Turn or run number, increasing. */
  seq: number;
  tokens: number;
}

/**
 * Which entries to compact: all but the most recent `keepRecent`, and only when the history passes a
 * threshold. Returns null when nothing needs doing. Entries are taken in `seq` order, whatever the input order.
 */
export function planCompaction(opts: {
  entries: readonly HistoryEntry[];
  maxEntries: number;
  maxTokens: number;
  keepRecent: number;
}): { range: { from: number; to: number }; ids: number[] } | null {
  const sorted = [...opts.entries].sort((a, b) => a.seq - b.seq || a.id - b.id);
  const tokens = sorted.reduce((sum, e) => sum + e.tokens, 0);
  if (!needsCompaction({ entries: sorted.length, tokens, maxEntries: opts.maxEntries, maxTokens: opts.maxTokens })) return null;
  const old = sorted.slice(0, Math.max(0, sorted.length - Math.max(0, opts.keepRecent)));
  const first = old[0];
  const last = old[old.length - 1];
  if (!first || !last) return null;
  return { range: { from: first.seq, to: last.seq }, ids: old.map((e) => e.id) };
}

const list = z.array(z.string().trim().min(1).max(400)).max(50);
const compactInputSchema = z.strictObject({
  range: z.strictObject({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative() }).refine((r) => r.from <= r.to, {
    message: '`from` must not be after `to`',
  }),
  topics: list,
  decisions: list,
  openQuestions: list,
  entities: list,
  fullRef: z.strictObject({
    table: z.string().regex(/^[a-z_][a-z0-9_]{0,40}$/, 'a table name'),
    ids: z.array(z.union([z.number().int().nonnegative(), z.string().regex(/^[\w-]{1,100}$/, 'a record id')])).min(1),
  }),
});

export type CompactInput = z.input<typeof compactInputSchema>;

/** Validates the structure (e.g. what a summariser model returned) and renders its text deterministically. */
export function createCompactSummary(input: CompactInput): CompactSummary {
  const parsed = parseOrThrow(compactInputSchema, input, 'compact');
  // Row numbers in order; record ids (strings) keep the order given (oldest first by the caller).
  const unique = [...new Set(parsed.fullRef.ids)];
  const ids = unique.every((id) => typeof id === 'number') ? (unique as number[]).sort((a, b) => a - b) : unique;
  const base = { kind: 'compact' as const, ...parsed, fullRef: { table: parsed.fullRef.table, ids } };
  return { ...base, text: renderCompactText(base) };
}

/** Fixed section order and labels; an empty section is left out (it carries no information). */
export function renderCompactText(s: Omit<CompactSummary, 'text'>): string {
  // `full:` names the table and the lowest–highest row id; the exact ids are in `fullRef`.
  const lines = [`compact summary 压缩摘要 (${s.range.from}–${s.range.to}) · full: ${s.fullRef.table}#${refSpan(s.fullRef.ids)}`];
  const section = (label: string, items: string[]) => {
    if (items.length > 0) lines.push(`${label}: ${items.join('；')}`);
  };
  section('topics 主题', s.topics);
  section('decisions 决定', s.decisions);
  section('open questions 待定', s.openQuestions);
  section('entities 实体', s.entities);
  return lines.join('\n');
}

function refSpan(ids: readonly (number | string)[]): string {
  const first = ids[0];
  const last = ids[ids.length - 1];
  if (first === undefined || last === undefined) return '';
  if (first === last) return String(first);
  // A row-number span reads "100-107"; record ids may contain '-', so theirs reads "run-b…run-c".
  return typeof first === 'number' ? `${first}-${last}` : `${first}…${last}`;
}

/** The L4 item for a compact summary; its id names the range so citations survive re-rendering. */
export function compactItem(summary: CompactSummary, sessionId: string): ContextItem {
  return {
    id: `compact:${sessionId}:${summary.range.from}-${summary.range.to}`,
    kind: 'compact',
    text: summary.text,
    source: `${summary.fullRef.table}#${refSpan(summary.fullRef.ids)}`,
    meta: { range: summary.range, fullRef: summary.fullRef },
  };
}
