/**
 * A layer's tokens against its budget, as the inspector's bar shows it. Required items (L0, the
 * selection and the message) may push a layer past its budget (01 doc "Budgets"): that must be visible,
 * not clipped away.
 */
export interface TokenBar {
  /** Width of the filled part, 0–100 (% of the bar, which stands for the budget). */
  fill: number;
  /** Tokens as a share of the budget, rounded (may pass 100). */
  percent: number;
  over: boolean;
  /** Tokens past the budget (0 when within). */
  overBy: number;
}

export function tokenBar(tokens: number, budget: number): TokenBar {
  const t = Math.max(0, tokens);
  if (budget <= 0) return { fill: t > 0 ? 100 : 0, percent: t > 0 ? Infinity : 0, over: t > 0, overBy: t };
  const share = (t / budget) * 100;
  return { fill: Math.min(100, Math.round(share * 10) / 10), percent: Math.round(share), over: t > budget, overBy: Math.max(0, t - budget) };
}
