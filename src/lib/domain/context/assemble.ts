/**
 * assembleContext: the context package of one run (seed 004 "构建一次 SKILL 调用的上下文包").
 *
 *   ┌──────────── stablePrefix (hashed) ────────────┐┌──────── dynamic ────────┐
 *   │ L0 rules │ L1 profile │ L2 prefs │ L3 settings ││ flags │ L4 │ L5        │
 *   └───────────────────────────────────────────────┘└─────────────────────────┘
 *   messages: system = prefix + flags + L4 · recent turns (native) · user = rest of L5
 *
 * Pure and deterministic: no clock, no randomness, no request ids; the same inputs give the same
 * bytes. Every layer is always present (content, fixed placeholder or fixed marker), so the structure
 * never drifts and a gap is always visible.
 */
import { EngineError } from '../errors';
import { flagLine } from './capabilities';
import { fitToBudget, type Candidate, type Fitted } from './budget';
import { LAYERS } from './layers';
import { PREFERENCES_EMPTY, PREFERENCES_HEADER } from './preferences';
import { prepareLayer, type Prepared } from './prepare';
import {
  degradedMarker,
  emptyPlaceholder,
  heading,
  isUnavailable,
  renderItem,
  separatorOf,
  turnRole,
  unavailableMarker,
} from './serialize';
import { sha256Hex } from './hash';
import type { AssembleInput, Capability, ContextMessage, ContextPackage, LayerId, LayerInput, LayerResult } from './types';

/** L0 is required (onMissing: fail); the L5 selection and message are the task itself. */
function isRequired(id: LayerId, kind: string): boolean {
  return id === 'L0' || (id === 'L5' && (kind === 'message' || kind === 'selection'));
}

/** Default priorities when the caller sets none: confirmed rules outlast learned ones; old turns go first. */
function defaultPriority(id: LayerId, p: Prepared): number {
  if (id === 'L2') return p.item.meta?.userConfirmed === true ? 1 : 0;
  if (id === 'L5') return p.item.kind === 'turn' ? 0 : 1;
  return 0;
}

function checkBudgets(budgets: AssembleInput['budgets']): void {
  for (const [id, value] of Object.entries(budgets ?? {})) {
    if (value === undefined) continue;
    if (!LAYERS.some((l) => l.id === id) || !Number.isInteger(value) || value < 0) {
      throw new EngineError('INVALID_ARGUMENT', `Invalid \`budgets.${id}\`: must be a non-negative integer for L0–L5`, {
        fields: [`budgets.${id}`],
      });
    }
  }
}

function requireRules(input: LayerInput | undefined): void {
  const status = input?.status ?? 'ok';
  if (status === 'canceled') throw new EngineError('CANCELED', 'The rules layer (`layers.L0`) was canceled');
  if (status === 'timeout') throw new EngineError('TIMEOUT', 'The rules layer (`layers.L0`) timed out');
  if (!input || status === 'missing' || status === 'empty' || input.items.length === 0) {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `layers.L0`: the rules layer must hold the system instructions', {
      fields: ['layers.L0'],
    });
  }
}

interface BuiltLayer {
  result: LayerResult;
  /** Kept L5 turns for native messages, and the rest of L5 rendered without them. */
  turns: ContextMessage[];
  restText: string;
}

function buildLayer(id: LayerId, input: LayerInput | undefined, ctx: AssembleInput): BuiltLayer {
  const spec = LAYERS.find((l) => l.id === id) as (typeof LAYERS)[number];
  const budget = ctx.budgets?.[id] ?? spec.defaultBudget;
  const status = input ? (input.status ?? 'ok') : 'missing';
  const reason = input?.reason === undefined ? {} : { reason: input.reason };
  // L2 keeps its 003 header line in every state, so only the body below it can change.
  const head = [heading(id), ...(id === 'L2' ? [PREFERENCES_HEADER] : [])];
  if (isUnavailable(status)) {
    const text = [...head, unavailableMarker(id, status)].join('\n');
    const result: LayerResult = { id, text, tokens: ctx.counter.count(text), budget, status, sources: [], cut: [], items: [], ...reason };
    return { result, turns: [], restText: text };
  }
  if (status === 'degraded') head.push(degradedMarker(id));
  const { items, cut } = prepareLayer({ id, items: input?.items ?? [], rules: ctx.skill?.rules, counter: ctx.counter });
  const byId = new Map(items.map((p) => [p.item.id, p]));
  const sep = separatorOf(id);
  const placeholder = id === 'L2' ? PREFERENCES_EMPTY : emptyPlaceholder(id);
  const render = (kept: readonly Fitted[]) =>
    [...head, kept.length > 0 ? kept.map((k) => k.rendered).join(sep) : placeholder].join('\n');
  const candidates: Candidate[] = items.map((p) => {
    const full = renderItem(id, p.item, p.citation);
    const label = full.slice(0, full.length - p.item.text.length);
    return {
      itemId: p.item.id,
      label,
      body: p.item.text,
      priority: p.item.priority ?? defaultPriority(id, p),
      required: isRequired(id, p.item.kind),
      // The chapter's working memory (issue 17) is cut at an entry boundary rather than dropped whole.
      trimmable: id === 'L1' || id === 'L3' || (id === 'L5' && p.item.kind === 'working-memory'),
    };
  });
  const overhead = ctx.counter.count(`${head.join('\n')}\n`);
  const fit = fitToBudget({ candidates, budget, counter: ctx.counter, overhead, render, separator: sep, recentFirst: id === 'L5' });
  const text = render(fit.kept);
  const sources = [...new Set(fit.kept.map((k) => (byId.get(k.itemId) as Prepared).sourceRef))];
  const result: LayerResult = {
    id,
    text,
    tokens: ctx.counter.count(text),
    budget,
    status,
    sources,
    cut: [...cut, ...fit.cut],
    items: fit.kept.map((k) => ({ id: k.itemId, tokens: k.tokens })),
    ...reason,
  };
  const isTurn = (k: Fitted) => byId.get(k.itemId)?.item.kind === 'turn';
  const turns = id === 'L5' ? fit.kept.filter(isTurn).map((k) => toMessage(byId.get(k.itemId) as Prepared)) : [];
  const restText = id === 'L5' ? render(fit.kept.filter((k) => !isTurn(k))) : text;
  return { result, turns, restText };
}

function toMessage(p: Prepared): ContextMessage {
  return { role: turnRole(p.item), content: p.item.text };
}

const MEMORY_LAYERS: readonly LayerId[] = ['L1', 'L2', 'L4'];

export async function assembleContext(input: AssembleInput): Promise<ContextPackage> {
  checkBudgets(input.budgets);
  requireRules(input.layers.L0);
  const built = LAYERS.map((spec) => buildLayer(spec.id, input.layers[spec.id], input));
  const at = (id: LayerId) => built[LAYERS.findIndex((l) => l.id === id)] as BuiltLayer;
  const layers = built.map((b) => b.result);
  // 003 degradation: memory is degraded when any memory-backed layer could not be read in full.
  const memoryDegraded = MEMORY_LAYERS.some((id) => {
    const s = at(id).result.status;
    return isUnavailable(s) || s === 'degraded';
  });
  const l5Input = input.layers.L5;
  const hasSelection = l5Input?.items.some((i) => i.kind === 'selection' && i.text.trim() !== '') ?? false;
  const flags: Record<Capability, boolean> = {
    project: input.capabilities?.project ?? true,
    selection: input.capabilities?.selection ?? hasSelection,
    memory: input.capabilities?.memory ?? !memoryDegraded,
  };
  const flag = flagLine(flags, input.locale);
  const stablePrefix = `${layers.slice(0, 4).map((l) => l.text).join('\n\n')}\n`;
  const l4 = at('L4');
  const l5 = at('L5');
  const dynamicText = `${[flag, l4.result.text, l5.result.text].join('\n\n')}\n`;
  const messages: ContextMessage[] = [
    { role: 'system', content: `${stablePrefix}\n${flag}\n\n${l4.result.text}\n` },
    ...l5.turns,
    { role: 'user', content: `${l5.restText}\n` },
  ];
  return {
    layers,
    stablePrefix,
    stablePrefixHash: await sha256Hex(stablePrefix),
    dynamicText,
    messages,
    totalTokens: messages.reduce((sum, m) => sum + input.counter.count(m.content), 0),
    memoryDegraded,
  };
}
