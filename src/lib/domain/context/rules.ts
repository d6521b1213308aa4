/**
 * A skill's `context_rules` (seed 004 "SKILL 的 context_rules 声明式上下文注入"): what context the skill
 * asks for. Every field is opt-in: a skill that does not name a field gets none of that content
 * ("只给需要的"). Unknown fields, wrong types and out-of-range values are INVALID_ARGUMENT naming the
 * field path (`context_rules.memories.topN`); messages are built from the schema, never from the value.
 */
import { z } from 'zod';
import { EngineError } from '../errors';
import { invalidArgument, parseOrThrow } from '../validation';

const count = (max: number) => z.number().int().min(0).max(max);

// The object/list halves of the boolean-or-X fields, kept apart so a bad value inside them can be
// reported at its exact path (zod reports any type error inside a union as a bare `invalid_union`).
const characterNames = z.array(z.string().trim().min(1).max(80)).min(1).max(50);
const memoriesObject = z.strictObject({ topN: count(50).optional(), episodes: z.boolean().optional() });
const historyObject = z.strictObject({ turns: count(200).optional(), summaries: z.boolean().optional() });

export const contextRulesSchema = z.strictObject({
  /** Unicode code points kept on EACH side of the selection, cut at paragraph then sentence boundaries. */
  surrounding: count(20_000).optional(),
  /** Character cards (.engram/characters/): true = all supplied; a list = only these names. */
  characters: z.union([z.boolean(), characterNames], { error: 'expected a boolean or a list of character names' }).optional(),
  /** World and other setting files (.engram/world/, .engram/settings/, …). */
  'project-settings': z.boolean().optional(),
  /** The style guide (.engram/style/). Learned preferences (L2) are always injected regardless. */
  style: z.boolean().optional(),
  /** L4 memories; `topN` caps them (default: the engine's memory.rag_top_n); episodes default on. */
  memories: z.union([z.boolean(), memoriesObject], { error: 'expected a boolean or an object { topN, episodes }' }).optional(),
  /** Conversation history: recent turns (L5, the last `turns`) and summaries (L4, compact first). */
  history: z.union([z.boolean(), historyObject], { error: 'expected a boolean or an object { turns, summaries }' }).optional(),
});

const BRANCHES: Record<string, { schema: z.ZodType; applies: (v: unknown) => boolean }> = {
  characters: { schema: characterNames, applies: Array.isArray },
  memories: { schema: memoriesObject, applies: isPlainObject },
  history: { schema: historyObject, applies: isPlainObject },
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export type ContextRules = z.output<typeof contextRulesSchema>;

const ROOT = 'context_rules';

/**
 * Accepts an object (already parsed from a skill file) or a JSON string. `undefined` means the skill
 * declares nothing: it gets only the always-present parts (rules, profile, preferences, selection,
 * message). YAML is not accepted: one unambiguous syntax, and no parser dependency.
 */
export function parseContextRules(raw: unknown): ContextRules {
  if (raw === undefined) return {};
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      // The parser's own message quotes the input: never pass it on.
      throw new EngineError('INVALID_ARGUMENT', `Invalid \`${ROOT}\`: not valid JSON`, { fields: [ROOT] });
    }
  }
  const res = contextRulesSchema.safeParse(value);
  if (res.success) return res.data;
  const first = res.error.issues[0];
  const key = first?.code === 'invalid_union' && first.path.length === 1 ? String(first.path[0]) : '';
  const branch = BRANCHES[key];
  if (branch && isPlainObject(value) && branch.applies(value[key])) parseOrThrow(branch.schema, value[key], `${ROOT}.${key}`);
  throw invalidArgument(res.error, ROOT);
}

/** Which `context_rules` field governs an item, by its kind (see docs/design/04-skill-context-injection.md). */
export type RuleField = 'characters' | 'project-settings' | 'style' | 'memories' | 'episodes' | 'summaries' | 'turns' | 'surrounding';

const FIELD_BY_KIND: Record<string, RuleField> = {
  character: 'characters',
  world: 'project-settings',
  setting: 'project-settings',
  'style-guide': 'style',
  memory: 'memories',
  episode: 'episodes',
  summary: 'summaries',
  'session-summary': 'summaries',
  'rolling-summary': 'summaries',
  compact: 'summaries',
  turn: 'turns',
  surrounding: 'surrounding',
};

/** A bare `file` item is classified by its folder under `.engram/`. */
function fieldForFile(path: string): RuleField {
  if (path.startsWith('.engram/characters/')) return 'characters';
  if (path.startsWith('.engram/style/')) return 'style';
  return 'project-settings';
}

/** `null` = always allowed (rules, profile, preferences, working memory, selection, message). */
export function ruleFieldFor(kind: string, path?: string): RuleField | null {
  if (kind === 'file' && path !== undefined) return fieldForFile(path);
  return FIELD_BY_KIND[kind] ?? null;
}

/** Whether the rules ask for a field at all (limits such as topN/turns/names are applied by the caller). */
export function isRequested(rules: ContextRules, field: RuleField): boolean {
  switch (field) {
    case 'characters':
      return rules.characters !== undefined && rules.characters !== false;
    case 'project-settings':
      return rules['project-settings'] === true;
    case 'style':
      return rules.style === true;
    case 'memories':
      return rules.memories !== undefined && rules.memories !== false;
    case 'episodes':
      return typeof rules.memories === 'object' ? rules.memories.episodes !== false : rules.memories === true;
    case 'summaries':
      return typeof rules.history === 'object' ? rules.history.summaries !== false : rules.history === true;
    case 'turns':
      return typeof rules.history === 'object' ? rules.history.turns !== 0 : rules.history === true;
    case 'surrounding':
      return rules.surrounding !== undefined;
  }
}
