/**
 * assembleContext: the context package of one run (seed 004 "构建一次 SKILL 调用的上下文包").
 *
 *   ┌──────────── stablePrefix (hashed) ────────────┐┌──────── dynamic ────────┐
 *   │ L0 rules │ L1 profile │ L2 prefs │ L3 settings ││ flags │ L4 │ L5        │
 *   └───────────────────────────────────────────────┘└─────────────────────────┘
 *   messages: system = prefix + flags (skills) + L4 + working memory · recent turns (native)
 *             · user = the task: the message as typed, or the labelled selection blocks and request
 *
 * Pure and deterministic: no clock, no randomness, no request ids; the same inputs give the same
 * bytes. Every word it adds is in one language, the prompt's (prompt-language.ts). A layer with nothing
 * in it sends nothing — except a skill run's L2, which keeps seed 004's fixed empty placeholder — while
 * a layer that could not be read always says so with a fixed marker, so a gap is never silent.
 */
import { EngineError } from '../errors';
import { flagLine } from './capabilities';
import { fitToBudget, type Candidate, type Fitted } from './budget';
import { LAYERS } from './layers';
import { preferencesEmpty, preferencesHeader } from './preferences';
import { prepareLayer, type Prepared } from './prepare';
import { promptLanguage, type PromptLanguage } from './prompt-language';
import { degradedMarker, heading, isUnavailable, l5Slot, renderItem, separatorOf, turnRole, unavailableMarker } from './serialize';
import { sha256Hex } from './hash';
import type { AssembleInput, Capability, ContextMessage, ContextPackage, KeptItem, LayerId, LayerInput, LayerResult } from './types';

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
  /** Kept L5 turns for native messages. */
  turns: ContextMessage[];
  /** L5's working memory, for the system message's dynamic part. */
  stateText: string;
  /** L5's task (selection blocks and the message), the final user message. */
  taskText: string;
}

interface BuildContext {
  input: AssembleInput;
  lang: PromptLanguage;
}

const TASK_SLOTS = new Set(['before', 'selection', 'after', 'message']);

function buildLayer(id: LayerId, layerInput: LayerInput | undefined, b: BuildContext): BuiltLayer {
  const ctx = b.input;
  const spec = LAYERS.find((l) => l.id === id) as (typeof LAYERS)[number];
  const budget = ctx.budgets?.[id] ?? spec.defaultBudget;
  const status = layerInput ? (layerInput.status ?? 'ok') : 'missing';
  const reason = layerInput?.reason === undefined ? {} : { reason: layerInput.reason };
  // L2 keeps its 003 header line in every state it shows, so only the body below it can change.
  const head = [heading(id, b.lang), ...(id === 'L2' ? [preferencesHeader(b.lang)] : [])];
  const none: Omit<BuiltLayer, 'result'> = { turns: [], stateText: '', taskText: '' };
  if (isUnavailable(status)) {
    const text = [...head, unavailableMarker(id, status, b.lang)].join('\n');
    const result: LayerResult = { id, text, tokens: ctx.counter.count(text), budget, status, sources: [], cut: [], items: [], ...reason };
    return { result, ...none };
  }
  if (status === 'degraded') head.push(degradedMarker(id, b.lang));
  const { items, cut } = prepareLayer({ id, items: layerInput?.items ?? [], rules: ctx.skill?.rules, counter: ctx.counter, lang: b.lang });
  const byId = new Map(items.map((p) => [p.item.id, p]));
  const sep = separatorOf(id);
  // Seed 004 keeps a skill run's L2 even when empty ("稳定的空占位"); elsewhere an empty layer sends nothing.
  const placeholder = id === 'L2' && ctx.skill ? preferencesEmpty(b.lang) : null;
  const render = (kept: readonly Fitted[]) => {
    if (kept.length > 0) return [...head, kept.map((k) => k.rendered).join(sep)].join('\n');
    if (placeholder !== null) return [...head, placeholder].join('\n');
    return status === 'degraded' ? head.join('\n') : '';
  };
  const labels = new Map<string, string>();
  const candidates: Candidate[] = items.map((p) => {
    const full = renderItem(id, p.item, p.citation, b.lang);
    const label = full.slice(0, full.length - p.item.text.length);
    labels.set(p.item.id, label);
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
    items: fit.kept.map((k) => keptItem(k, byId.get(k.itemId) as Prepared, labels.get(k.itemId) ?? '')),
    ...reason,
  };
  if (id !== 'L5') return { result, ...none };
  const slotOf = (k: Fitted) => l5Slot((byId.get(k.itemId) as Prepared).item);
  const task = fit.kept.filter((k) => TASK_SLOTS.has(slotOf(k)));
  const state = fit.kept.filter((k) => slotOf(k) === 'working-memory');
  // The message alone is sent as typed; a task with a selection gets its heading and labelled blocks.
  const onlyMessage = task.length === 1 && slotOf(task[0]!) === 'message';
  return {
    result,
    turns: fit.kept.filter((k) => slotOf(k) === 'turn').map((k) => toMessage(byId.get(k.itemId) as Prepared)),
    stateText: state.map((k) => k.rendered).join(sep),
    taskText: onlyMessage ? (byId.get(task[0]!.itemId) as Prepared).item.text : render(task),
  };
}

/** Metadata a person can read or follow; nothing else of an item's meta is kept with the run. */
const SHOWN_META = ['role', 'createdAt', 'title', 'conversationId', 'name', 'scope', 'confidence', 'startTurn', 'endTurn'];

function keptItem(k: Fitted, p: Prepared, label: string): KeptItem {
  const meta: Record<string, string | number> = {};
  for (const key of SHOWN_META) {
    const v = p.item.meta?.[key];
    if (typeof v === 'string' || typeof v === 'number') meta[key] = v;
  }
  // A rule's own text is a list line ("- rule (confidence …)"): a person reads the line, not its bullet.
  const sent = k.rendered.startsWith(label) ? k.rendered.slice(label.length) : p.item.text;
  const text = sent.replace(/^- /u, '');
  return { id: k.itemId, tokens: k.tokens, kind: p.item.kind, text, ...(Object.keys(meta).length > 0 ? { meta } : {}) };
}

function toMessage(p: Prepared): ContextMessage {
  return { role: turnRole(p.item), content: p.item.text };
}

/** The prompt's language: the caller's, else the message's (or the selection's), else the UI's. */
function languageOf(input: AssembleInput): PromptLanguage {
  if (input.language) return input.language;
  const task = input.layers.L5?.items ?? [];
  const text = (kind: string) => task.find((i) => i.kind === kind)?.text;
  return promptLanguage([text('message'), text('selection')], input.locale);
}

const nonEmpty = (parts: readonly string[]) => parts.filter((p) => p !== '');

const MEMORY_LAYERS: readonly LayerId[] = ['L1', 'L2', 'L4'];

export async function assembleContext(input: AssembleInput): Promise<ContextPackage> {
  checkBudgets(input.budgets);
  requireRules(input.layers.L0);
  const b: BuildContext = { input, lang: languageOf(input) };
  const built = LAYERS.map((spec) => buildLayer(spec.id, input.layers[spec.id], b));
  const at = (id: LayerId) => built[LAYERS.findIndex((l) => l.id === id)] as BuiltLayer;
  const layers = built.map((x) => x.result);
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
  // Masking (004) is for skills, whose L0 describes every capability; a chat turn has none to mask.
  const flag = input.skill ? flagLine(flags, b.lang) : '';
  const stablePrefix = `${nonEmpty(layers.slice(0, 4).map((l) => l.text)).join('\n\n')}\n`;
  const l4 = at('L4');
  const l5 = at('L5');
  const dynamic = nonEmpty([flag, l4.result.text, l5.stateText]);
  const messages: ContextMessage[] = [
    { role: 'system', content: dynamic.length > 0 ? `${stablePrefix}\n${dynamic.join('\n\n')}\n` : stablePrefix },
    ...l5.turns,
    { role: 'user', content: l5.taskText },
  ];
  return {
    layers,
    language: b.lang,
    stablePrefix,
    stablePrefixHash: await sha256Hex(stablePrefix),
    dynamicText: `${nonEmpty([flag, l4.result.text, l5.result.text]).join('\n\n')}\n`,
    messages,
    totalTokens: messages.reduce((sum, m) => sum + input.counter.count(m.content), 0),
    memoryDegraded,
  };
}
