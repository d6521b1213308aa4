import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../domain/clock';
import type { SemanticRule } from '../../../engine/context/types';
import { groupRules, isRecentlyUpdated, parseScopeValue, ruleBadges, scopeValue } from './rules-view';

const NOW = 100 * DAY_MS;
let n = 0;
const rule = (over: Partial<SemanticRule> = {}): SemanticRule => ({
  id: `r-${++n}`,
  rule: 'Short sentences in action scenes',
  category: 'style',
  scope: 'global',
  projectId: null,
  key: null,
  confidence: 0.8,
  supporting: [],
  contradicting: [],
  userConfirmed: false,
  userModified: false,
  source: 'learned',
  basis: [],
  penalty: 0,
  driftedAt: null,
  conflictId: null,
  version: 1,
  status: 'active',
  createdAt: NOW - 30 * DAY_MS,
  updatedAt: NOW - 30 * DAY_MS,
  ...over,
});

describe('preference rules view', () => {
  it('groups by category in the seed order, most confident first, and leaves out empty groups', () => {
    const rules = [
      rule({ id: 'v', category: 'vocabulary' }),
      rule({ id: 's1', category: 'style', confidence: 0.5 }),
      rule({ id: 'p', category: 'pacing' }),
      rule({ id: 's2', category: 'style', confidence: 0.9 }),
    ];
    expect(groupRules(rules).map((g) => [g.category, g.rules.map((r) => r.id)])).toEqual([
      ['style', ['s2', 's1']],
      ['pacing', ['p']],
      ['vocabulary', ['v']],
    ]);
  });

  it.each([
    { name: 'drifted yesterday', driftedAt: NOW - DAY_MS, want: true },
    { name: 'drifted 30 days ago', driftedAt: NOW - 30 * DAY_MS, want: true },
    { name: 'drifted 31 days ago', driftedAt: NOW - 31 * DAY_MS, want: false },
    { name: 'never drifted (edited or re-counted only)', driftedAt: null, want: false },
    { name: 'a date in the future', driftedAt: NOW + DAY_MS, want: false },
  ])('003 "最近更新" when $name: $want', ({ driftedAt, want }) => {
    expect(isRecentlyUpdated({ driftedAt }, NOW)).toBe(want);
  });

  it.each([
    { over: {}, want: ['learned'] },
    { over: { userConfirmed: true, source: 'user' as const }, want: ['confirmed'] },
    { over: { userConfirmed: true, userModified: true, driftedAt: NOW - DAY_MS }, want: ['confirmed', 'learned', 'edited', 'recent'] },
  ])('badges $want', ({ over, want }) => {
    expect(ruleBadges(rule(over), NOW)).toEqual(want);
  });

  it.each([{ scope: 'global' as const }, { scope: 'project' as const, projectId: 'p-1' }, { scope: 'project' as const, projectId: 'global' }])(
    'scope %o survives the select',
    (scope) => {
      expect(parseScopeValue(scopeValue(scope))).toEqual(scope);
    },
  );

  it('reads an unknown select value as global', () => {
    expect(parseScopeValue('project:')).toEqual({ scope: 'global' });
    expect(parseScopeValue('whatever')).toEqual({ scope: 'global' });
  });
});
