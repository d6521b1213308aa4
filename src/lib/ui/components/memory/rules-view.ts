import { DAY_MS } from '../../../domain/clock';
import type { RuleCategory, SemanticRule } from '../../../engine/context/types';

/** Seed 003 memory panel: rules grouped by category, in this order (写作风格, 叙事偏好, 角色偏好, 节奏, 词汇). */
export const RULE_CATEGORIES = ['style', 'structure', 'character', 'pacing', 'vocabulary'] as const satisfies readonly RuleCategory[];

/** 003 "时间迁移 … 标注「最近更新」": a rule your recent writing changed (time drift), within the 30 days that decided it. */
export const RECENT_MS = 30 * DAY_MS;

export interface RuleGroup {
  category: RuleCategory;
  rules: SemanticRule[];
}

/** Non-empty groups in the fixed order; within a group, the most confident rule first. */
export function groupRules(rules: readonly SemanticRule[]): RuleGroup[] {
  return RULE_CATEGORIES.map((category) => ({
    category,
    rules: rules.filter((r) => r.category === category).sort((a, b) => b.confidence - a.confidence || a.createdAt - b.createdAt),
  })).filter((g) => g.rules.length > 0);
}

/** Marks what learning changed on its own (a time drift), which the person may not have seen yet. */
export function isRecentlyUpdated(rule: Pick<SemanticRule, 'driftedAt'>, now: number): boolean {
  return rule.driftedAt !== null && rule.driftedAt <= now && now - rule.driftedAt <= RECENT_MS;
}

export type RuleBadge = 'confirmed' | 'learned' | 'edited' | 'recent';

export function ruleBadges(rule: SemanticRule, now: number): RuleBadge[] {
  const badges: RuleBadge[] = [];
  if (rule.userConfirmed) badges.push('confirmed');
  if (rule.source === 'learned') badges.push('learned');
  if (rule.userModified) badges.push('edited');
  if (isRecentlyUpdated(rule, now)) badges.push('recent');
  return badges;
}

/** The scope select's value: 'global' or a project's id prefixed, so no id can collide with 'global'. */
export type RuleScope = { scope: 'global' } | { scope: 'project'; projectId: string };

export function scopeValue(scope: RuleScope): string {
  return scope.scope === 'global' ? 'global' : `project:${scope.projectId}`;
}

export function parseScopeValue(value: string): RuleScope {
  return value.startsWith('project:') && value.length > 'project:'.length
    ? { scope: 'project', projectId: value.slice('project:'.length) }
    : { scope: 'global' };
}
