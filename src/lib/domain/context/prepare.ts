/**
 * Per-layer preparation before budgeting: validate items (ids, citations, turn roles), normalise their
 * text, apply the skill's `context_rules` (not requested → cut, limits, surrounding trim), resolve L2
 * scope precedence, and put the items in their fixed display order.
 */
import { EngineError } from '../errors';
import type { TokenCounter } from '../text/tokens';
import { filePathOf, looksAbsolute } from './project-path';
import { formatPreferenceLine, maskedCut, resolvePreferences } from './preferences';
import type { PromptLanguage } from './prompt-language';
import { isRequested, ruleFieldFor, type ContextRules } from './rules';
import { compareStable, l5Rank, l5Slot, normaliseText } from './serialize';
import { trimSurrounding } from './surrounding';
import type { ContextItem, CutRecord, LayerId } from './types';

export interface Prepared {
  item: ContextItem;
  /** `file:<relative path>` for file-backed items, else the source or the id. */
  citation: string;
  /** What `sources` lists: the relative path for files, else the source or the id. */
  sourceRef: string;
}

const invalid = (field: string, what: string) =>
  new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: ${what}`, { fields: [field] });

function validate(id: LayerId, items: readonly ContextItem[]): Prepared[] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    const at = `layers.${id}.items[${i}]`;
    if (typeof item.id !== 'string' || item.id.trim() === '') throw invalid(`${at}.id`, 'expected a non-empty id');
    if (seen.has(item.id)) throw invalid(`${at}.id`, 'duplicate id in this layer');
    seen.add(item.id);
    if (typeof item.text !== 'string') throw invalid(`${at}.text`, 'expected string');
    if (item.source !== undefined && looksAbsolute(item.source)) {
      throw invalid(`${at}.source`, 'must not be an absolute path or file URL (cite a project-relative path)');
    }
    if (item.kind === 'turn' && item.meta?.role !== undefined && item.meta.role !== 'user' && item.meta.role !== 'assistant') {
      throw invalid(`${at}.meta.role`, 'expected one of "user", "assistant"');
    }
    const path = filePathOf(item.id, `${at}.id`);
    const citation = path === null ? item.id : `file:${path}`;
    return { item: { ...item, text: normaliseText(item.text) }, citation, sourceRef: path ?? item.source ?? item.id };
  });
}

function notRequested(itemId: string, text: string, counter: TokenCounter): CutRecord {
  return { itemId, reason: 'not-requested', tokensBefore: counter.count(text), tokensAfter: 0 };
}

/** The name a `characters: [..]` list matches: meta.name, else the file name without extension. */
function characterName(p: Prepared): string {
  const name = typeof p.item.meta?.name === 'string' ? p.item.meta.name : (p.sourceRef.split('/').pop() ?? '').replace(/\.[^.]*$/, '');
  return name.normalize('NFC').trim().toLowerCase();
}

/** Drops what the skill did not ask for and applies its limits (topN, last N turns, names, surrounding). */
function applyRules(prepared: Prepared[], rules: ContextRules, counter: TokenCounter): { kept: Prepared[]; cut: CutRecord[] } {
  const cut: CutRecord[] = [];
  const wanted = Array.isArray(rules.characters) ? new Set(rules.characters.map((n) => n.normalize('NFC').toLowerCase())) : null;
  const topN = typeof rules.memories === 'object' ? rules.memories.topN : undefined;
  const turnCount = prepared.filter((p) => p.item.kind === 'turn').length;
  const lastTurns = typeof rules.history === 'object' ? rules.history.turns : undefined;
  let memoriesSeen = 0;
  let turnNo = 0;
  const kept: Prepared[] = [];
  for (const p of prepared) {
    const isFile = p.citation.startsWith('file:');
    const field = ruleFieldFor(p.item.kind, isFile ? p.sourceRef : undefined);
    if (field === 'turns') turnNo++;
    let keep = field === null || isRequested(rules, field);
    if (keep && field === 'characters' && wanted) keep = wanted.has(characterName(p));
    // topN counts in the retriever's rank order; `turns` keeps the most recent (last supplied) ones.
    if (keep && field === 'memories' && topN !== undefined) keep = ++memoriesSeen <= topN;
    if (keep && field === 'turns' && lastTurns !== undefined) keep = turnNo > turnCount - lastTurns;
    if (keep) kept.push(p);
    else cut.push(notRequested(p.item.id, p.item.text, counter));
  }
  return { kept: trimSides(kept, rules, counter, cut), cut };
}

/** `surrounding: N` — N code points each side, paragraph then sentence boundaries (surrounding.ts). */
function trimSides(items: Prepared[], rules: ContextRules, counter: TokenCounter, cut: CutRecord[]): Prepared[] {
  const limit = rules.surrounding;
  if (limit === undefined) return items;
  const before = items.find((p) => p.item.kind === 'surrounding' && l5Slot(p.item) === 'before');
  const after = items.find((p) => p.item.kind === 'surrounding' && l5Slot(p.item) === 'after');
  if (!before && !after) return items;
  const res = trimSurrounding({ before: before?.item.text ?? '', after: after?.item.text ?? '', limit });
  const replace = new Map<Prepared, string>();
  for (const [side, text, removed] of [
    [before, res.before, res.cut.beforeRemoved],
    [after, res.after, res.cut.afterRemoved],
  ] as const) {
    if (!side || removed === 0) continue;
    const trimmed = normaliseText(text);
    cut.push({ itemId: side.item.id, reason: 'trimmed', tokensBefore: counter.count(side.item.text), tokensAfter: counter.count(trimmed) });
    replace.set(side, trimmed);
  }
  return items
    .map((p) => (replace.has(p) ? { ...p, item: { ...p.item, text: replace.get(p) as string } } : p))
    .filter((p) => !(p.item.kind === 'surrounding' && p.item.text === ''));
}

/**
 * Everything before budgeting for one available layer. `rules` is undefined outside a skill run (chat):
 * then every supplied item is used.
 */
export function prepareLayer(opts: {
  id: LayerId;
  items: readonly ContextItem[];
  rules: ContextRules | undefined;
  counter: TokenCounter;
  lang: PromptLanguage;
}): { items: Prepared[]; cut: CutRecord[] } {
  const { id, counter } = opts;
  const cut: CutRecord[] = [];
  // Empty text would render a bare label (or an empty rule line): leave it out, but visibly.
  let prepared = validate(id, opts.items).filter((p) => {
    if (p.item.text !== '') return true;
    cut.push({ itemId: p.item.id, reason: 'trimmed', tokensBefore: 0, tokensAfter: 0 });
    return false;
  });
  if (opts.rules && (id === 'L3' || id === 'L4' || id === 'L5')) {
    const ruled = applyRules(prepared, opts.rules, counter);
    prepared = ruled.kept;
    cut.push(...ruled.cut);
  }
  if (id === 'L2') {
    const { kept, masked } = resolvePreferences(prepared.map((p) => p.item));
    for (const m of masked) cut.push(maskedCut(m.item.id, counter.count(m.item.text)));
    const byId = new Map(prepared.map((p) => [p.item.id, p]));
    prepared = kept.map((k) => {
      const p = byId.get(k.item.id) as Prepared;
      return { ...p, item: { ...p.item, text: formatPreferenceLine(p.item.text, k.meta, opts.lang), meta: { ...p.item.meta, ...k.meta } } };
    });
  }
  return { items: sortForDisplay(id, prepared), cut };
}

function sortForDisplay(id: LayerId, items: Prepared[]): Prepared[] {
  if (id === 'L0' || id === 'L1' || id === 'L2' || id === 'L3') return [...items].sort((a, b) => compareStable(a.item, b.item));
  // L4 keeps the retriever's rank order; L5 its fixed slots, each in the caller's (chronological) order.
  if (id === 'L5') return items.map((p, i) => ({ p, i })).sort((a, b) => l5Rank(a.p.item) - l5Rank(b.p.item) || a.i - b.i).map((x) => x.p);
  return items;
}
