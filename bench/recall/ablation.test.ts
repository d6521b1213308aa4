import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG, MEMORY_TECHNIQUES, RECALL_TECHNIQUES, RETRIEVAL_TECHNIQUES } from '../../src/lib/domain/recall/config';
import type { DatasetRun } from './datasets/common';
import type { ItemScores } from './evaluate';
import {
  ablationOf,
  ablationPasses,
  ablationRows,
  ALL_TECHNIQUES,
  beyondOneQuestion,
  halfRows,
  halfVerdict,
  HALF_KEYS,
  NO_TECHNIQUES,
  splitHalves,
} from './ablation';

describe('ablation passes', () => {
  it('switch each technique of the data set’s path off once, through the product config', () => {
    const turn = ablationPasses('locomo');
    expect(turn[0]).toEqual({ name: ALL_TECHNIQUES, config: {} });
    expect(turn.slice(1, -1).map((p) => Object.entries(p.config))).toEqual(RECALL_TECHNIQUES.map((t) => [[t, false]]));
    expect(turn.at(-1)?.name).toBe(NO_TECHNIQUES);
    expect(ablationPasses('madial').slice(1, -1).map((p) => Object.keys(p.config)[0])).toEqual([...MEMORY_TECHNIQUES]);
  });

  it('cover every technique the product has, each on by default', () => {
    expect([...RECALL_TECHNIQUES, ...MEMORY_TECHNIQUES].sort()).toEqual([...RETRIEVAL_TECHNIQUES].sort());
    for (const t of RETRIEVAL_TECHNIQUES) expect(DEFAULT_RETRIEVAL_CONFIG[t]).toBe(true);
  });

  it('report each pass against all techniques', () => {
    const t = ablationRows('madial', {
      passes: { [ALL_TECHNIQUES]: { 'recall@3': 0.5, 'recall@5': 0.6, 'recall@10': 0.7 }, 'without memoryGrams': { 'recall@3': 0.4, 'recall@5': 0.5, 'recall@10': 0.7 } },
    });
    expect(t.header).toEqual(['pass', 'recall@3', 'recall@5', 'recall@10', 'Δ recall@3']);
    expect(t.rows).toEqual([
      [ALL_TECHNIQUES, 0.5, 0.6, 0.7, ''],
      ['without memoryGrams', 0.4, 0.5, 0.7, '-0.100'],
    ]);
  });
});

describe('split-half check', () => {
  // Invented questions: conversation "p" has three, "q" two, "r" one, "s" two — interleaved, not in blocks.
  const asked = [
    { q: 1, group: 'p' },
    { q: 2, group: 'q' },
    { q: 3, group: 'p' },
    { q: 4, group: 'r' },
    { q: 5, group: 'q' },
    { q: 6, group: 's' },
    { q: 7, group: 'p' },
    { q: 8, group: 's' },
  ];

  it('keeps each conversation whole in one half, alternating in order of first appearance', () => {
    const { a, b } = splitHalves(asked, (x) => x.group);
    expect(a.map((x) => x.q)).toEqual([1, 3, 4, 7]); // p and r: 1st and 3rd conversations
    expect(b.map((x) => x.q)).toEqual([2, 5, 6, 8]); // q and s: 2nd and 4th
    const groupsA = new Set(a.map((x) => x.group));
    for (const x of b) expect(groupsA.has(x.group)).toBe(false);
    expect([...a, ...b].map((x) => x.q).sort((m, n) => m - n)).toEqual(asked.map((x) => x.q));
  });

  it('is the same split however often it is made (no randomness)', () => {
    expect(splitHalves(asked, (x) => x.group)).toEqual(splitHalves(asked, (x) => x.group));
  });

  // Two passes; the switch costs conversation "p" (half A) every question and helps "q" (half B) on one of two.
  const item = (group: string, all: number, off: number): ItemScores => ({
    category: 'c',
    group,
    systems: { [ALL_TECHNIQUES]: { shown: { 'recall@5': all, 'recall@10': all } }, 'without statements': { shown: { 'recall@5': off, 'recall@10': all } } },
  });
  const run: DatasetRun = {
    dataset: 'locomo',
    items: [item('p', 1, 0), item('q', 0, 1), item('p', 1, 0), item('q', 0, 0), item('r', 1, 1)],
    timings: new Map(),
    notes: [],
  };
  const passes = ablationPasses('locomo').filter((p) => p.name === ALL_TECHNIQUES || p.name === 'without statements');

  it('averages each half over its own conversations only', () => {
    const r = ablationOf(run, passes, 0);
    expect(r.n).toBe(5);
    expect(r.halves.a).toEqual({
      n: 3,
      groups: 2,
      passes: { [ALL_TECHNIQUES]: { 'recall@5': 1, 'recall@10': 1 }, 'without statements': { 'recall@5': 0.3333, 'recall@10': 1 } },
    });
    expect(r.halves.b).toEqual({
      n: 2,
      groups: 1,
      passes: { [ALL_TECHNIQUES]: { 'recall@5': 0, 'recall@10': 0 }, 'without statements': { 'recall@5': 0.5, 'recall@10': 0 } },
    });
    expect(r.passes['without statements']?.['recall@5']).toBe(0.4);
  });

  it('reports the change on the whole set and on each half, and flags a sign that reverses', () => {
    const r = ablationOf(run, passes, 0);
    // whole 0.4 − 0.6; A 0.3333 − 1; B 0.5 − 0 (one question of two: 1/2 is within one question's worth)
    expect(halfRows('locomo', r).rows).toEqual([['without statements', '-0.200', '-0.667', '+0.500', 'A only']]);
    expect(r.halves.flips).toEqual({});
  });

  it('shows a change that rounds to zero without a sign', () => {
    const tiny = { ...run, items: [item('p', 1, 1), ...Array.from({ length: 2999 }, () => item('p', 0, 0)), item('q', 1, 1)] };
    tiny.items[0] = item('p', 1, 0.7); // −0.3 over 3,000 questions of A: −0.0001
    expect(halfRows('locomo', ablationOf(tiny, passes, 0)).rows[0]?.slice(2, 3)).toEqual(['0.000']);
  });

  it('counts one question’s change as noise and calls opposite signs beyond it a flip', () => {
    expect(beyondOneQuestion(1 / 24, 24)).toBe(false);
    expect(beyondOneQuestion(0.0417, 24)).toBe(false); // 1/24 after four-decimal rounding
    expect(beyondOneQuestion(-2 / 24, 24)).toBe(true);
    expect(halfVerdict({ delta: -0.1, n: 100 }, { delta: -0.05, n: 100 })).toBe('holds');
    expect(halfVerdict({ delta: -0.1, n: 100 }, { delta: 0.05, n: 100 })).toBe('flips');
    expect(halfVerdict({ delta: 0.1, n: 100 }, { delta: -0.05, n: 100 })).toBe('flips');
    expect(halfVerdict({ delta: -0.1, n: 100 }, { delta: 0.05, n: 10 })).toBe('A only');
    expect(halfVerdict({ delta: 0.005, n: 100 }, { delta: -0.2, n: 10 })).toBe('B only');
    expect(halfVerdict({ delta: 0, n: 100 }, { delta: 0, n: 100 })).toBe('noise');
  });

  it('flags a pass whose change reverses on the two halves in the stored result', () => {
    const many = (group: string, k: number, all: number, off: number) => Array.from({ length: k }, () => item(group, all, off));
    // A: 10 questions, 3 lost without the switch; B: 10 questions, 3 gained without it.
    const flip: DatasetRun = { ...run, items: [...many('p', 3, 1, 0), ...many('q', 3, 0, 1), ...many('p', 7, 1, 1), ...many('q', 7, 1, 1)] };
    const r = ablationOf(flip, passes, 0);
    expect(r.halves.flips).toEqual({ 'without statements': ['recall@5'] });
    expect(halfRows('locomo', r).rows[0]).toEqual(['without statements', '0.000', '-0.300', '+0.300', 'flips']);
  });

  it('compares the first goal metric and the @5 goals', () => {
    expect(HALF_KEYS).toEqual({
      locomo: ['recall@5'],
      longmemeval: ['turn_recall_all@5', 'session_recall_all@5'],
      madial: ['recall@3', 'recall@5'],
    });
  });
});
