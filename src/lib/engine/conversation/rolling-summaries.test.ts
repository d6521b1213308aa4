import { describe, expect, it } from 'vitest';
import { dueSummaryBlocks } from '../../domain/conversation/summarize';
import { createTestEngine, expectOk, type TestEngine } from '../testing';

async function chat(t: TestEngine, sessionId: string, turns: number, from = 1): Promise<void> {
  for (let i = from; i < from + turns; i++) {
    t.clock.advance(60_000);
    expectOk(await t.engine.call('message.append', { sessionId, role: 'user', content: `第${i}轮：OrderService 的问题` }));
    expectOk(await t.engine.call('message.append', { sessionId, role: 'assistant', content: `第${i}轮的回答。` }));
  }
}

const blocks = async (t: TestEngine, sessionId: string) =>
  expectOk(await t.engine.call('summary.list', { sessionId, kind: 'rolling' })).map((s) => [s.startTurn, s.endTurn]);

describe('dueSummaryBlocks (002 REQ-LTM-002)', () => {
  const cfg = { after: 10, block: 5, keepFull: 5 };
  it.each([
    { turnCount: 9, summarizedUpTo: 0, firstTurn: 1, due: [] },
    { turnCount: 10, summarizedUpTo: 0, firstTurn: 1, due: [[1, 5]] },
    { turnCount: 20, summarizedUpTo: 5, firstTurn: 1, due: [[6, 10], [11, 15]] },
    { turnCount: 20, summarizedUpTo: 15, firstTurn: 1, due: [] },
    // A cleanup removed turns 1–12: blocks start at the oldest kept turn, never at a deleted one.
    { turnCount: 30, summarizedUpTo: 0, firstTurn: 13, due: [[13, 17], [18, 22]] },
    { turnCount: 30, summarizedUpTo: 17, firstTurn: 13, due: [[18, 22]] },
  ])('$turnCount turns, summarised to $summarizedUpTo, first kept turn $firstTurn → $due', ({ due, ...state }) => {
    expect(dueSummaryBlocks({ ...state, ...cfg }).map((b) => [b.startTurn, b.endTurn])).toEqual(due);
  });
});

describe('summary.roll', () => {
  it('storing turns never summarises; one pass makes every due block of every conversation, a second pass nothing', async () => {
    const t = await createTestEngine();
    const a = expectOk(await t.engine.call('session.create', {}));
    const b = expectOk(await t.engine.call('session.create', {}));
    const quiet = expectOk(await t.engine.call('session.create', {}));
    await chat(t, a.id, 20);
    await chat(t, b.id, 11);
    await chat(t, quiet.id, 9);
    expect(await blocks(t, a.id)).toEqual([]);

    expect(expectOk(await t.engine.call('summary.roll', {}))).toMatchObject({ sessions: 2 });
    expect(await blocks(t, a.id)).toEqual([[1, 5], [6, 10], [11, 15]]);
    expect(await blocks(t, b.id)).toEqual([[1, 5]]);
    expect(await blocks(t, quiet.id)).toEqual([]);
    expect(expectOk(await t.engine.call('summary.roll', {}))).toEqual({ created: [], sessions: 0 });
  });

  it('one conversation on its own, and a context build makes its conversation’s due summaries first', async () => {
    const t = await createTestEngine();
    const a = expectOk(await t.engine.call('session.create', {}));
    const b = expectOk(await t.engine.call('session.create', {}));
    await chat(t, a.id, 10);
    await chat(t, b.id, 10);
    expect(expectOk(await t.engine.call('summary.roll', { sessionId: a.id })).created).toHaveLength(1);
    expect(await blocks(t, b.id)).toEqual([]);
    expectOk(await t.engine.call('context.build', { kind: 'chat', sessionId: b.id, message: '继续', locale: 'zh-CN' }));
    expect(await blocks(t, b.id)).toEqual([[1, 5]]);
  });
});
