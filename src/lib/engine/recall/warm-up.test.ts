import { describe, expect, it } from 'vitest';
import { extractKeywords } from '../../domain/text/keywords';
import { querySymbols } from '../../domain/text/symbols';
import { resolveTimeExpressions } from '../../domain/text/time-expressions';
import { createTestEngine, expectOk } from '../testing';
import { WARM_UP_QUESTION, warmRecallAnalysis } from './warm-up';

describe('the recall warm-up of a cold start (issue 16 item 3)', () => {
  it('takes the question through every analysis a first recall makes, over the warm-up’s own turns', () => {
    const now = Date.UTC(2026, 10, 26, 12);
    // What the warm-up question is for: a change that drops one of these leaves that analysis cold again.
    expect(querySymbols(WARM_UP_QUESTION).map((s) => s.toLowerCase())).toEqual(expect.arrayContaining(['parseconfig']));
    expect(resolveTimeExpressions(WARM_UP_QUESTION, { now }).length).toBeGreaterThanOrEqual(2);
    expect(extractKeywords(WARM_UP_QUESTION).some((k) => /\p{Script=Han}/u.test(k))).toBe(true);
    // Two passes through the pipeline, each probing the index for its terms (answered in memory, no database).
    const { reads } = warmRecallAnalysis(now);
    expect(reads).toBeGreaterThanOrEqual(2 * 4);
    expect(warmRecallAnalysis(now).reads).toBe(reads);
  });

  it('goes past the analysis: the steps after it run on candidates, as a first recall’s do', () => {
    const { asked, results } = warmRecallAnalysis(Date.UTC(2026, 10, 26, 12));
    // Each read below is asked for only when the step before it found something (an empty index stops at ranked).
    for (const read of ['ranked', 'symbolHits', 'inRange', 'facts', 'texts', 'summaryBlocks', 'summaryTexts', 'sessionInfo', 'totalSearched'] as const)
      expect(asked, read).toContain(read);
    expect(results).toBeGreaterThan(0);
  });

  it('changes nothing a recall returns', async () => {
    const t = await createTestEngine();
    const { id } = expectOk(await t.engine.call('session.create', {}));
    for (const content of ['Sam fixed parseConfig in src/order.ts on Saturday.', '上周六我们聊过登录超时的问题。', 'What did Sam say about the timeout?']) {
      t.clock.advance(60_000);
      expectOk(await t.engine.call('message.append', { sessionId: id, role: 'user', content }));
    }
    const ask = async (query: string) => {
      const res = expectOk(await t.engine.call('recall.search', { query, limit: 5 }));
      return { results: res.results, query: res.query };
    };
    const questions = [WARM_UP_QUESTION, 'parseConfig', '登录超时', 'what did Sam tell you last Saturday?'];
    const before = await Promise.all(questions.map(ask));
    warmRecallAnalysis(t.clock.now());
    expect(await Promise.all(questions.map(ask))).toEqual(before);
    expect(before[1]!.results.length).toBeGreaterThan(0);
  });
});
