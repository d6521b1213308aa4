import { z } from 'zod';
import { extractJson } from '../llm/json-reply';
import { formatPath } from '../validation';
import type { MemoryCandidate } from './types';
import { MEMORY_CATEGORIES } from './types';
import { normaliseModelKey, shapeValue } from './keys';
import { profileHintsFor } from './profile-slots';
import { lookupObject } from './lexicon';
import { clampText, comparableTokens, detectLanguage, normaliseText } from './text-norm';

/**
 * The model's `memory_update` (seed 001 "Create long-term memory from user statement"): after a reply
 * the model says whether the user's message holds something worth keeping.
 *
 * Strict about types: `should_store` is a boolean, `confidence` a number in 0..1, `category` and
 * `source` from their lists; nothing is coerced ("0.9" is rejected). Lenient about the envelope, because
 * models in JSON mode wrap and chatter: extra fields are dropped, prose or a ```json fence around the JSON
 * is skipped, and it may come as one item, `{ memory_update: item }`, `{ memory_updates: [...] }` or an
 * array. One bad item is reported and skipped; the others are kept.
 *
 * The model may say a memory is `user_stated` or `inferred`, never `system`: what the system prompt says
 * is not a fact about the user, and a model-proposed `system` item is invalid (field `source`).
 */

/** Sources a model may claim for a memory it proposes. */
export const MODEL_SOURCES = ['user_stated', 'inferred'] as const;

const storeItem = z.object({
  should_store: z.literal(true),
  category: z.enum(MEMORY_CATEGORIES),
  key: z.string().trim().min(1).max(200),
  value: z.json(),
  confidence: z.number().min(0).max(1),
  source: z.enum(MODEL_SOURCES),
  content: z.string().trim().min(1).optional(),
  tags: z.array(z.string().trim().min(1).max(64)).max(20).optional(),
});
const skipItem = z.object({ should_store: z.literal(false) });

export const memoryUpdateItemSchema = z.discriminatedUnion('should_store', [storeItem, skipItem]);
export type MemoryUpdateItem = z.output<typeof memoryUpdateItemSchema>;

/** The whole answer, strictly: for documentation and JSON-schema output (`z.toJSONSchema`). */
export const memoryUpdateSchema = z.union([
  memoryUpdateItemSchema,
  z.object({ memory_update: memoryUpdateItemSchema }),
  z.object({ memory_updates: z.array(memoryUpdateItemSchema).max(50) }),
  z.array(memoryUpdateItemSchema).max(50),
]);

/** 001: what the user said outright is remembered with confidence 0.9 or more. */
export const USER_STATED_MIN_CONFIDENCE = 0.9;
/** An inference never claims more certainty than this. */
export const UNGROUNDED_MAX_CONFIDENCE = 0.7;

/**
 * An item the engine did not use: `schema` = failed validation (the offending fields), `ungrounded` =
 * nothing in it is found in the user's message. Index and field names only, never values.
 */
export interface RejectedItem {
  index: number;
  fields: string[];
  reason: 'schema' | 'ungrounded';
}

export interface ModelUpdateParse {
  /** Valid items with their index in the model's answer. */
  items: MemoryUpdateItem[];
  indexes: number[];
  invalid: RejectedItem[];
  /** False when no JSON could be found at all. */
  parsed: boolean;
}

export function parseModelMemoryUpdates(json: unknown): ModelUpdateParse {
  // A string is the model's raw answer: fences, prose and <think> blocks around the JSON are skipped.
  const root = typeof json === 'string' ? extractJson(json) : json;
  if (root === undefined) return { items: [], indexes: [], invalid: [], parsed: false };
  const raw = envelopeItems(root);
  const items: MemoryUpdateItem[] = [];
  const indexes: number[] = [];
  const invalid: RejectedItem[] = [];
  raw.slice(0, 50).forEach((item, index) => {
    const res = memoryUpdateItemSchema.safeParse(item);
    if (res.success) {
      items.push(res.data);
      indexes.push(index);
    } else invalid.push({ index, fields: [...new Set(res.error.issues.map((i) => formatPath(i.path) || '(root)'))], reason: 'schema' });
  });
  return { items, indexes, invalid, parsed: true };
}

function envelopeItems(root: unknown): unknown[] {
  if (Array.isArray(root)) return root;
  if (typeof root === 'object' && root !== null) {
    const obj = root as Record<string, unknown>;
    if (Array.isArray(obj['memory_updates'])) return obj['memory_updates'];
    if ('memory_update' in obj) return [obj['memory_update']];
  }
  return [root];
}

export interface ModelCandidates {
  candidates: MemoryCandidate[];
  /** Items not used: invalid ones and ones the user's words do not support. */
  rejected: RejectedItem[];
  /** Items the model marked should_store=false (it found nothing worth keeping there). */
  skipped: number;
  parsed: boolean;
}

/**
 * Candidates from the model's answer, each checked against the user's own words (issue 4 item 2: the
 * system prompt and the assistant's reply are never facts about the user):
 *
 *   item ─ zod ─✗─▶ rejected (schema)
 *        ─ should_store=false ─▶ skipped
 *        ─ grounded in the user's message? ─no─▶ rejected (ungrounded), whatever its source
 *        ─ yes ─▶ key onto the key scheme, content cut to maxContentLength, user_stated confidence ≥ 0.9,
 *                 inferred confidence ≤ 0.7
 *
 * `user_stated` must be grounded by its value (what the user said); `inferred` may be grounded by its
 * value or by the words of its content (what it was inferred from).
 */
export function readModelMemoryUpdates(json: unknown, opts: { userText: string; maxContentLength: number }): ModelCandidates {
  const parsed = parseModelMemoryUpdates(json);
  const out: MemoryCandidate[] = [];
  const rejected: RejectedItem[] = [...parsed.invalid];
  let skipped = 0;
  parsed.items.forEach((item, i) => {
    if (!item.should_store) return void skipped++;
    const key = normaliseModelKey(item.key, item.category);
    const value = shapeValue(key, item.value);
    const content = clampText(item.content ?? describeValue(key, value), opts.maxContentLength);
    let { confidence } = item;
    const { source } = item;
    if (!grounded({ value, content, userText: opts.userText, byContent: source === 'inferred' })) {
      return void rejected.push({ index: parsed.indexes[i]!, fields: ['value'], reason: 'ungrounded' });
    }
    if (source === 'user_stated') confidence = Math.max(confidence, USER_STATED_MIN_CONFIDENCE);
    else confidence = Math.min(confidence, UNGROUNDED_MAX_CONFIDENCE);
    const language = detectLanguage(content);
    out.push({
      category: item.category,
      key,
      value,
      content,
      confidence,
      source,
      tags: [...new Set(item.tags ?? [])],
      language,
      profile: profileHintsFor({ key, value, language }),
    });
  });
  rejected.sort((a, b) => a.index - b.index);
  return { candidates: out, rejected, skipped, parsed: parsed.parsed };
}

/** The usable candidates of a model answer (see readModelMemoryUpdates). */
export function candidatesFromModel(json: unknown, opts: { userText: string; maxContentLength: number }): MemoryCandidate[] {
  return readModelMemoryUpdates(json, opts).candidates;
}

function describeValue(key: string, value: unknown): string {
  return typeof value === 'string' ? value : `${key}: ${JSON.stringify(value)}`;
}

/**
 * Whether the user's text supports the item: one of the value's strings (or, for a value without
 * strings or with `byContent`, the content's words) occurs in it: literally, through a shared word that
 * is not a stop word, or through the lexicon ("coffee" grounds in "我喜欢喝咖啡").
 */
function grounded(opts: { value: unknown; content: string; userText: string; byContent: boolean }): boolean {
  const user = normaliseText(opts.userText);
  const userTokens = comparableTokens(opts.userText);
  const leaves = stringLeaves(opts.value).filter((s) => !STRUCTURAL.has(normaliseText(s)));
  const probes = leaves.length === 0 ? [opts.content] : opts.byContent ? [...leaves, opts.content] : leaves;
  return probes.some((probe) => {
    const norm = normaliseText(probe);
    if (norm !== '' && user.includes(norm)) return true;
    for (const token of comparableTokens(norm)) if (!STOP.has(token) && userTokens.has(token)) return true;
    const entry = lookupObject(norm);
    return entry !== null && entry.terms.some((t) => user.includes(t));
  });
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** Enum-like values of our own JSON shapes, which say nothing about grounding. */
const STRUCTURAL = new Set(['like', 'dislike', 'positive', 'negative', 'concise', 'detailed', 'true', 'false']);
/** Words too common to ground anything ("the user is …", "用户喜欢…"). */
const STOP = new Set([
  'the', 'a', 'an', 'is', 'are', 'was', 'be', 'to', 'of', 'and', 'or', 'in', 'on', 'at', 'for', 'with', 'by',
  'as', 'it', 'this', 'that', 'i', 'me', 'my', 'you', 'your', 'user', "user's", 'likes', 'like', 'prefers',
  'prefer', 'loves', 'love', 'name', 'named', 'called', 'works', 'work', 'lives', 'live', 'not', 'no', 'do',
  '用户', '喜欢', '我的', '名字', '工作', '不喜', '住在', '他的', '她的',
]);
