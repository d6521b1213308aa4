/**
 * Fitting one layer into its token budget, counted with the real tokenizer (text/tokens.ts).
 *
 * - Required candidates (L0, the L5 selection and message) are always kept; such a layer may exceed
 *   its budget, and the inspector shows it (tokens > budget) rather than the prompt losing the task.
 * - Others are kept by priority (higher first); ties keep the earlier item, except where `recentFirst`
 *   (L5: the rolling window drops the OLDEST turns first, seed 000 "滚动窗口管理").
 * - Trimmable candidates (the profile, project setting files) that do not fit whole are cut at a
 *   paragraph, else a sentence boundary, never mid-sentence; a candidate that still does not fit is
 *   left out with an `over-budget` record.
 * - The rendered layer is counted again at the end; if token merging across joins pushed it over,
 *   the lowest-ranked kept candidate goes, so `tokens <= budget` holds whenever anything was droppable.
 */
import type { TokenCounter } from '../text/tokens';
import { findBoundaries } from './boundaries';
import type { CutRecord } from './types';

export interface Candidate {
  itemId: string;
  /** Fixed part that stays when trimming (e.g. `[file:…]\n`), then the trimmable body. */
  label: string;
  body: string;
  priority: number;
  required: boolean;
  trimmable: boolean;
}

export interface Fitted {
  itemId: string;
  rendered: string;
  tokens: number;
}

export interface FitResult {
  kept: Fitted[];
  cut: CutRecord[];
}

/**
 * Per-item estimates (item + separator) are slightly pessimistic, because the tokenizer merges across
 * joins; near the limit the real rendered layer decides. SLACK bounds how far over the estimate may
 * be before that exact (and costlier) check is skipped.
 */
const SLACK = 16;

export function fitToBudget(opts: {
  candidates: readonly Candidate[];
  budget: number;
  counter: TokenCounter;
  /** Tokens of the fixed part (heading, header lines) before the first item. */
  overhead: number;
  /** Renders the whole layer from the kept items, in display order. */
  render: (kept: readonly Fitted[]) => string;
  separator: string;
  recentFirst: boolean;
}): FitResult {
  const { candidates, counter, budget } = opts;
  const display = candidates.map((c, index) => ({ c, index }));
  const rank = [...display].sort(
    (a, b) => b.c.priority - a.c.priority || (opts.recentFirst ? b.index - a.index : a.index - b.index),
  );
  const sepTokens = counter.count(opts.separator);
  const kept = new Map<number, Fitted>();
  const cut: CutRecord[] = [];
  let remaining = budget - opts.overhead;
  const inDisplayOrder = (extra?: [number, Fitted]) =>
    [...kept.entries(), ...(extra ? [extra] : [])].sort((a, b) => a[0] - b[0]).map(([, f]) => f);
  const fitsWith = (index: number, f: Fitted) => counter.count(opts.render(inDisplayOrder([index, f]))) <= budget;
  const take = (index: number, f: Fitted) => {
    remaining -= f.tokens + (kept.size > 0 ? sepTokens : 0);
    kept.set(index, f);
  };
  // Required items are paid for first, whatever their rank.
  for (const { c, index } of display) {
    if (c.required) take(index, { itemId: c.itemId, rendered: c.label + c.body, tokens: counter.count(c.label + c.body) });
  }
  const order: number[] = [];
  for (const { c, index } of rank) {
    if (c.required) continue;
    const whole: Fitted = { itemId: c.itemId, rendered: c.label + c.body, tokens: counter.count(c.label + c.body) };
    const cost = whole.tokens + (kept.size > 0 ? sepTokens : 0);
    if (cost <= remaining || (cost - remaining <= SLACK && fitsWith(index, whole))) {
      take(index, whole);
      order.push(index);
      continue;
    }
    const room = remaining - (kept.size > 0 ? sepTokens : 0) - counter.count(c.label);
    const body = c.trimmable && room + SLACK > 0 ? trimToFit(c.body, room + SLACK, counter, (head) => fitsWith(index, fitted(c, head, counter))) : '';
    if (body !== '') {
      const trimmed = fitted(c, body, counter);
      take(index, trimmed);
      order.push(index);
      cut.push({ itemId: c.itemId, reason: 'trimmed', tokensBefore: whole.tokens, tokensAfter: trimmed.tokens });
      continue;
    }
    cut.push({ itemId: c.itemId, reason: 'over-budget', tokensBefore: whole.tokens, tokensAfter: 0 });
  }
  // Final check on the real rendered text; drop the lowest-ranked optional item until it fits.
  while (counter.count(opts.render(inDisplayOrder())) > budget && order.length > 0) {
    const index = order.pop() as number;
    const dropped = kept.get(index) as Fitted;
    kept.delete(index);
    const prior = cut.findIndex((r) => r.itemId === dropped.itemId);
    const before = prior >= 0 ? (cut[prior] as CutRecord).tokensBefore : dropped.tokens;
    if (prior >= 0) cut.splice(prior, 1);
    cut.push({ itemId: dropped.itemId, reason: 'over-budget', tokensBefore: before, tokensAfter: 0 });
  }
  return { kept: inDisplayOrder(), cut };
}

function fitted(c: Candidate, body: string, counter: TokenCounter): Fitted {
  return { itemId: c.itemId, rendered: c.label + body, tokens: counter.count(c.label + body) };
}

/** trimToTokens with a final say: the longest boundary cut within the hint that `fits` accepts. */
function trimToFit(text: string, maxTokens: number, counter: TokenCounter, fits: (head: string) => boolean): string {
  const cps = Array.from(text);
  const reach = Array.from(counter.truncate(text, maxTokens)).length;
  const bounds = findBoundaries(cps).filter((b) => b.end > 0 && b.end <= reach);
  if (reach >= cps.length && fits(text)) return text;
  for (const kind of ['paragraph', 'any'] as const) {
    const ends = bounds.filter((b) => kind === 'any' || b.kind === kind).map((b) => b.end);
    for (let i = ends.length - 1; i >= 0; i--) {
      const head = cps.slice(0, ends[i]).join('');
      if (fits(head)) return head;
    }
  }
  return '';
}

/**
 * The longest head of `text` within `maxTokens` that ends at a paragraph boundary, else at a sentence
 * boundary; '' when not even the first sentence fits. One encode finds the reachable length, then the
 * boundaries are searched backwards from it.
 */
export function trimToTokens(text: string, maxTokens: number, counter: TokenCounter): string {
  if (maxTokens <= 0) return '';
  if (counter.count(text) <= maxTokens) return text;
  return trimToFit(text, maxTokens, counter, (head) => counter.count(head) <= maxTokens);
}
