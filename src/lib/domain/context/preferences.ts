/**
 * L2, the preferences section (seed 004 "用户偏好自动注入"; format from seed 003 "语义记忆注入", in the
 * prompt's language — prompt-language.ts):
 *
 *   [用户写作偏好 - 自动学习]                     [Learned writing preferences]
 *   - 动作场景：偏好短句（置信度: 0.87）           - Short sentences in action scenes (confidence: 0.87)
 *   - 叙事视角：严格第一人称（置信度: 0.95，用户已确认） - … (confidence: 0.95, confirmed by the user)
 *   - 使用第三人称全知（置信度: 0.90，项目级）       - … (confidence: 0.90, this project)
 *
 * Lines are in creation order (`order`, then id), so a new rule is appended at the end of the block
 * and every byte before it stays the same (append-only, 02-kv-cache doc). Scope precedence (003
 * "项目级覆盖全局级") is applied by key: a global rule whose key a project rule also has is masked
 * (left out and recorded), and project rules carry the `项目级` tag. The same holds by claim (issue 17):
 * a global rule that contradicts a project rule ("偏好长句" vs the project's "偏好短句") is masked in that
 * project (003 作用域重叠: 项目级规则优先). A rule suspended by an open direct contradiction (003 直接矛盾)
 * is not injected at all until the user chooses.
 */
import { z } from 'zod';
import { parseOrThrow } from '../validation';
import { contradiction, parseClaimKey, type Claim } from '../semantic/claims';
import { PROMPT_WORDS, type PromptLanguage } from './prompt-language';
import type { ContextItem, CutRecord } from './types';

export function preferencesHeader(lang: PromptLanguage): string {
  return PROMPT_WORDS[lang].preferences.header;
}

/** The fixed body of a skill run's L2 when there is no rule at all: the section never disappears there (004). */
export function preferencesEmpty(lang: PromptLanguage): string {
  return PROMPT_WORDS[lang].preferences.empty;
}

export const preferenceMetaSchema = z.object({
  scope: z.enum(['global', 'project']),
  confidence: z.number().min(0).max(1),
  userConfirmed: z.boolean().default(false),
  /** Conflict key (e.g. `narrative.pov`); a project rule overrides a global rule with the same key. */
  key: z.string().trim().min(1).max(200).optional(),
  /** What the rule claims (semantic/claims.ts claimKey); a project rule masks a global rule it contradicts. */
  claims: z.array(z.string().max(120)).max(20).default([]),
  /** In an open direct contradiction: masked until the user chooses. */
  suspended: z.boolean().default(false),
});
export type PreferenceMeta = z.output<typeof preferenceMetaSchema>;

export interface PreferenceRule {
  id: string;
  rule: string;
  scope: 'global' | 'project';
  confidence: number;
  userConfirmed?: boolean;
  key?: string;
  /** Creation order (row id); decides the line's position. */
  order?: number;
  claims?: string[];
  suspended?: boolean;
}

/** Builds the L2 item for a semantic rule (003's entry: rule, scope, confidence, userConfirmed). */
export function preferenceItem(rule: PreferenceRule): ContextItem {
  const meta: Record<string, unknown> = { scope: rule.scope, confidence: rule.confidence, userConfirmed: rule.userConfirmed ?? false };
  if (rule.key !== undefined) meta.key = rule.key;
  if (rule.claims?.length) meta.claims = rule.claims;
  if (rule.suspended) meta.suspended = true;
  return { id: `preference:${rule.id}`, kind: 'preference', text: rule.rule, ...(rule.order === undefined ? {} : { order: rule.order }), meta };
}

/** 003 line format. Confidence has two decimals so small learning updates do not churn the prefix. */
export function formatPreferenceLine(text: string, meta: Pick<PreferenceMeta, 'scope' | 'confidence' | 'userConfirmed'>, lang: PromptLanguage = 'zh'): string {
  const w = PROMPT_WORDS[lang].preferences;
  const notes = [w.confidence(meta.confidence.toFixed(2))];
  if (meta.userConfirmed) notes.push(w.confirmed);
  if (meta.scope === 'project') notes.push(w.project);
  // One rule, one line: a line break inside a rule would break the block's structure.
  return `- ${text.replace(/\s*\n\s*/g, ' ')}${w.open}${notes.join(w.sep)}${w.close}`;
}

export interface ResolvedPreference {
  item: ContextItem;
  meta: PreferenceMeta;
  /** Index in the caller's list, for error paths. */
  index: number;
}

/**
 * Validates each item's meta (INVALID_ARGUMENT `layers.L2.items[i].meta.confidence` …) and masks the
 * global rules a project rule overrides. The kept list keeps the caller's order; sorting is done later.
 */
export function resolvePreferences(items: readonly ContextItem[]): { kept: ResolvedPreference[]; masked: ResolvedPreference[] } {
  const resolved = items.map((item, index) => ({
    item,
    index,
    meta: parseOrThrow(preferenceMetaSchema, item.meta ?? {}, `layers.L2.items[${index}].meta`),
  }));
  const project = resolved.filter((r) => r.meta.scope === 'project' && !r.meta.suspended);
  const projectKeys = new Set(project.filter((r) => r.meta.key).map((r) => normKey(r.meta.key)));
  const projectClaims = project.map((r) => claimsOf(r.meta));
  const kept: ResolvedPreference[] = [];
  const masked: ResolvedPreference[] = [];
  for (const r of resolved) {
    const global = r.meta.scope === 'global';
    const byKey = global && r.meta.key !== undefined && projectKeys.has(normKey(r.meta.key));
    const own = global ? claimsOf(r.meta) : [];
    const byClaim = own.length > 0 && projectClaims.some((c) => contradiction(own, c, { bothLearned: false }) !== null);
    (r.meta.suspended || byKey || byClaim ? masked : kept).push(r);
  }
  return { kept, masked };
}

function claimsOf(meta: PreferenceMeta): Claim[] {
  return meta.claims.map(parseClaimKey).filter((c): c is Claim => c !== null);
}

function normKey(key: string | undefined): string {
  return (key ?? '').normalize('NFC').toLowerCase();
}

export function maskedCut(itemId: string, tokens: number): CutRecord {
  return { itemId, reason: 'masked', tokensBefore: tokens, tokensAfter: 0 };
}
