import { describe, expect, it } from 'vitest';
import { rollingWindow, type WindowMessage } from './window';

function turns(n: number): WindowMessage[] {
  return Array.from({ length: n }, (_, i) => [
    { role: 'user' as const, content: `q${i + 1}`, turnNo: i + 1 },
    { role: 'assistant' as const, content: `a${i + 1}`, turnNo: i + 1 },
  ]).flat();
}

describe('000 滚动窗口管理', () => {
  it('000 消息数超限裁剪: the oldest user/assistant turn leaves first', () => {
    const { kept, dropped } = rollingWindow(turns(3), 4);
    expect(kept.map((m) => m.content)).toEqual(['q2', 'a2', 'q3', 'a3']);
    expect(dropped.map((m) => m.content)).toEqual(['q1', 'a1']);
  });

  it.each([
    { n: 1, limit: 4, kept: 2 },
    { n: 2, limit: 4, kept: 4 },
    { n: 10, limit: 20, kept: 20 },
    { n: 11, limit: 20, kept: 20 },
    { n: 50, limit: 6, kept: 6 },
  ])('$n turns with context_limit $limit keep $kept messages', ({ n, limit, kept }) => {
    expect(rollingWindow(turns(n), limit).kept).toHaveLength(kept);
  });

  it('never keeps a reply without its question', () => {
    // An odd limit cannot hold half a turn: the whole turn goes.
    const { kept } = rollingWindow(turns(3), 3);
    expect(kept.map((m) => m.content)).toEqual(['q3', 'a3']);
  });

  it('keeps a trailing unanswered question with its turn', () => {
    const msgs = [...turns(2), { role: 'user' as const, content: 'q3', turnNo: 3 }];
    expect(rollingWindow(msgs, 2).kept.map((m) => m.content)).toEqual(['q3']);
    expect(rollingWindow(msgs, 3).kept.map((m) => m.content)).toEqual(['q2', 'a2', 'q3']);
  });
});
