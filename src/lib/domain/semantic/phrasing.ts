/**
 * Distillation with a model (seed 003 "自然语言规则生成"; "蒸馏过程必须调用 LLM"): the statistics decide
 * *what* was learned, the model says it better and may join patterns of one group into one rule
 * ("对白：口语化、短句"). Its answer is JSON, validated with zod; it may only phrase patterns it was given,
 * each at most once, so a model can never invent a preference the episodes do not show.
 *
 *   patterns (key, group, pole, confidence, template) + a few kept/rejected excerpts per pattern
 *     ─▶ model: {"rules":[{"basedOn":["scene.dialogue.register","scene.dialogue.sentence-length"],"rule":"…","category":"style"}]}
 *     ─▶ phrasedRules(): zod → every key offered, same group, used once → rules; patterns left out keep their template
 */
import { z } from 'zod';
import type { ChatMessage } from '../llm/types';
import type { RuleCategory } from './hypotheses';
import type { RuleProposal } from './distill';
import { groupKey } from './templates';
import { clipChars } from '../text/clip';

export const MAX_RULE_CHARS = 300;
export const MAX_EXCERPT_CHARS = 160;

export const phrasingAnswerSchema = z.object({
  rules: z
    .array(
      z.object({
        basedOn: z.array(z.string().min(1).max(120)).min(1).max(4),
        rule: z.string().trim().min(2).max(MAX_RULE_CHARS),
        category: z.enum(['style', 'structure', 'character', 'pacing', 'vocabulary']),
      }),
    )
    .max(50),
});
export type PhrasingAnswer = z.output<typeof phrasingAnswerSchema>;

export interface PatternExamples {
  key: string;
  kept: string[];
  rejected: string[];
}

const SYSTEM = [
  'You turn statistically significant writing-preference patterns into short rules for a writing assistant.',
  'Each pattern says which group of writing it applies to (all writing, a scene type, a skill), what the writer prefers and how confident the statistics are.',
  'Write each rule as one line in Chinese followed by " · " and the same rule in English, e.g. "对白：口语化，短句 · dialogue: colloquial, short lines".',
  'You may join patterns of the SAME group into one rule. Use only the pattern keys given; never add a preference the patterns do not state.',
  'Reply with JSON only: {"rules":[{"basedOn":[pattern keys],"rule":"…","category":"style|structure|character|pacing|vocabulary"}]}.',
].join('\n');

/** The excerpt keeps MAX_EXCERPT_CHARS characters, then the ellipsis. */
const clip = (s: string) => clipChars(s, MAX_EXCERPT_CHARS + 1);

export function phrasingMessages(patterns: readonly RuleProposal[], examples: readonly PatternExamples[]): ChatMessage[] {
  const lines = patterns.map((p) => {
    const ex = examples.find((e) => e.key === p.key);
    const kept = (ex?.kept ?? []).map((t) => `    kept: ${JSON.stringify(clip(t))}`);
    const rejected = (ex?.rejected ?? []).map((t) => `    not wanted: ${JSON.stringify(clip(t))}`);
    return [`- key: ${p.key} (group ${groupKey(p.group)}, confidence ${p.confidence.toFixed(2)}, from ${p.stats.votes} votes)`, `    statistics say: ${p.text}`, ...kept, ...rejected].join('\n');
  });
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Patterns:\n${lines.join('\n')}` },
  ];
}

export interface PhrasedRule {
  keys: string[];
  rule: string;
  category: RuleCategory;
}

/**
 * The usable part of a model's answer: rules over offered keys of one group, each key once. Throws a
 * zod error for an answer that is not the agreed JSON at all (the distillation then fails and retries).
 */
export function phrasedRules(answer: unknown, patterns: readonly RuleProposal[]): { rules: PhrasedRule[]; dropped: number } {
  const parsed = phrasingAnswerSchema.parse(answer);
  const offered = new Map(patterns.map((p) => [p.key, p]));
  const used = new Set<string>();
  const rules: PhrasedRule[] = [];
  let dropped = 0;
  for (const r of parsed.rules) {
    const keys = [...new Set(r.basedOn)].sort();
    const groups = new Set(keys.map((k) => (offered.get(k) ? groupKey(offered.get(k)!.group) : null)));
    const scopes = new Set(keys.map((k) => (offered.get(k) ? `${offered.get(k)!.scope}:${offered.get(k)!.projectId ?? ''}` : null)));
    if (keys.some((k) => !offered.has(k) || used.has(k)) || groups.size !== 1 || scopes.size !== 1 || /\n/.test(r.rule)) {
      dropped++;
      continue;
    }
    keys.forEach((k) => used.add(k));
    rules.push({ keys, rule: r.rule, category: r.category });
  }
  return { rules, dropped };
}
