/**
 * Per-model layer budgets (seed 004 "最大 Token 预算", issue 5 item 1 "per-model settable"): derived from
 * the model's context window, so a 4k local model gets a context that fits and a large one gets more
 * history.
 *
 *   window ─ reply reserve (¼, 256…4096) ─ framing ─▶ room for the layers
 *   room < defaults  → every layer scaled down by the same factor (L0 keeps its share: it is required)
 *   room ≥ defaults  → L0–L3 stay at their defaults (the prefix stays as it is); the extra goes to the
 *                      dynamic layers L4 and L5 in their default proportion, up to GROWTH × their default
 */
import { LAYERS } from './layers';
import type { LayerId } from './types';

export const REPLY_SHARE = 0.25;
export const MIN_REPLY_TOKENS = 256;
export const MAX_REPLY_TOKENS = 4096;
/** Headings, header lines, the flag line and message framing of the six sections. */
export const FRAMING_TOKENS = 120;
/** How far past their default the dynamic layers may grow on a large window. */
export const GROWTH = 4;

export type LayerBudgets = Record<LayerId, number>;

/** Tokens kept free for the model's answer in a window of this size. */
export function replyReserve(contextWindow: number): number {
  return Math.min(MAX_REPLY_TOKENS, Math.max(MIN_REPLY_TOKENS, Math.round(contextWindow * REPLY_SHARE)));
}

export function budgetsForWindow(contextWindow: number): LayerBudgets {
  const room = Math.max(0, Math.floor(contextWindow) - replyReserve(contextWindow) - FRAMING_TOKENS);
  const defaults = LAYERS.reduce((sum, l) => sum + l.defaultBudget, 0);
  const out = {} as LayerBudgets;
  if (room < defaults) {
    for (const l of LAYERS) out[l.id] = Math.floor((l.defaultBudget * room) / defaults);
    return out;
  }
  const dynamic = LAYERS.filter((l) => !l.stable);
  const dynamicDefaults = dynamic.reduce((sum, l) => sum + l.defaultBudget, 0);
  const extra = room - defaults;
  for (const l of LAYERS) {
    out[l.id] = l.stable
      ? l.defaultBudget
      : Math.min(l.defaultBudget * GROWTH, l.defaultBudget + Math.floor((extra * l.defaultBudget) / dynamicDefaults));
  }
  return out;
}
