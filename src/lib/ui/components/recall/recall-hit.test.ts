import { describe, expect, it } from 'vitest';
import { recallScore } from '../../../domain/recall/score';
import type { RecallHit as Hit } from '../../../engine/recall/types';
import { renderHtml, textOf } from '../settings/test-render';
import RecallHit from './recall-hit.svelte';

function hit(over: Partial<Hit> = {}): Hit {
  return {
    conversationId: 'conv-1',
    sessionTitle: 'Payments',
    turnId: 23,
    turnNo: 20,
    role: 'assistant',
    content: 'processPayment has a race; use a mutex.',
    summary: null,
    summaryId: null,
    turnRange: null,
    relevance: recallScore({ symbol: 1, recency: 0.5, context: 0.25 }).relevance,
    createdAt: Date.UTC(2024, 0, 15),
    isSummary: false,
    explain: {
      ...recallScore({ symbol: 1, recency: 0.5, context: 0.25 }),
      matchedSymbols: ['processPayment'],
      ftsRank: -1.5,
      signals: { lane: 'text', lexical: 0.8, neighbour: 0.5, nearby: 0, session: 0, speaker: 2, cue: true, turnRank: 3, recencyBasis: 'time-range', coverage: 0.75, answerType: true, statement: null, semantic: null, semanticRank: null },
    },
    ...over,
  };
}

describe('recall hit', () => {
  it('links to the turn in its conversation', () => {
    expect(renderHtml(RecallHit, { hit: hit() })).toContain('href="/chat?session=conv-1&amp;message=23"');
  });

  it('explains the score term by term, adding up to the relevance', () => {
    const html = renderHtml(RecallHit, { hit: hit() });
    const rows = [...html.matchAll(/<tr data-term="(\w+)">([\s\S]*?)<\/tr>/g)].map((m) => [m[1], textOf(m[2]!)]);
    expect(rows).toEqual([
      ['symbol', 'Symbol match 1.00 × 0.4 0.40'],
      ['recency', 'Recency 0.50 × 0.3 0.15'],
      ['context', 'Context similarity 0.25 × 0.3 0.08'],
    ]);
    expect(textOf(html)).toContain('Relevance 0.63');
    expect(textOf(html)).toContain('Matched symbols: processPayment');
  });

  it('names the signal that ranked it', () => {
    const html = renderHtml(RecallHit, { hit: hit() });
    expect(html).toContain('data-by="symbol"');
    expect(textOf(html)).toContain('ranked by a code symbol it names');
  });

  it('names every signal behind the context and recency terms', () => {
    const lines = [...renderHtml(RecallHit, { hit: hit() }).matchAll(/<li data-signal="([\w.-]+)">([\s\S]*?)<\/li>/g)].map((m) => [m[1], textOf(m[2]!)]);
    expect(lines).toEqual([
      ['lane.text', 'Found by its own words.'],
      ['lexical', 'Its words match the question: 0.80 of the best match (bm25).'],
      ['neighbour', 'Borrows from the turn next to it, which matches 0.50.'],
      ['speaker', 'Written by the person the question is about: × 2.'],
      ['turnRank', 'Place 3 in the turn ranking.'],
      ['coverage', 'Holds 75% of the question’s words (rarer words count more).'],
      ['answerType.yes', 'Holds what the question asks for (a time, a number, a place, a person, a duration).'],
      ['recency.time-range', 'Recency is how well its date fits the time the question names.'],
    ]);
  });

  it('badges a summary and links to its conversation only', () => {
    const html = renderHtml(RecallHit, {
      hit: hit({ isSummary: true, turnId: null, turnNo: null, role: null, content: null, summary: 'Refactored OrderService.', summaryId: 5, turnRange: [1, 5] }),
    });
    expect(html).toContain('data-testid="recall-hit-summary"');
    expect(html).toContain('href="/chat?session=conv-1"');
    expect(textOf(html)).toContain('Turns 1–5');
    expect(textOf(html)).toContain('Refactored OrderService.');
  });

  it('shows remembered text as text', () => {
    const html = renderHtml(RecallHit, { hit: hit({ content: '<img src=x onerror=alert(1)>' }) });
    expect(html).not.toContain('<img');
  });
});
