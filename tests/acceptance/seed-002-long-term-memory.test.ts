/**
 * Seed 002 (对话长期记忆) scenarios SC-LTM-001…006, against the real engine on sqlite-wasm.
 * Latency figures of the seed are measured by `npm run bench`, not asserted here.
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { DAY_MS, newSession, turn } from './helpers';

describe('seed 002 long-term memory', () => {
  it('SC-LTM-001 记忆跨越 100 轮对话: early summaries and recent full turns are recalled', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 1; i <= 100; i++) {
      if (i <= 5) await turn(t, s.id, `OrderService 第${i}个问题：下单时库存扣减不一致`, `OrderService 需要在 reserveStock 前加锁，这是第${i}步的结论。`);
      else if (i >= 96) await turn(t, s.id, `OrderService 的问题现在又出现在第${i}轮了`, `我们再看一下 OrderService 的重试逻辑，第${i}轮。`);
      else await turn(t, s.id, `我们聊聊天气和第${i}个无关话题`, `好的，这是关于天气的第${i}个回答。`);
    }
    // The jobs worker's periodic pass (storing a turn does not summarise).
    expectOk(await t.engine.call('summary.roll', {}));
    const res = expectOk(await t.engine.call('recall.search', { query: '之前讨论的 OrderService 问题', limit: 5 }));
    const summaries = res.results.filter((r) => r.isSummary);
    const turns = res.results.filter((r) => !r.isSummary);
    expect(summaries.some((r) => r.turnRange?.[0] === 1 && r.summary?.includes('OrderService'))).toBe(true);
    expect(turns.some((r) => (r.turnNo ?? 0) >= 96 && r.content?.includes('OrderService'))).toBe(true);
    expect(res.totalSearched).toBeGreaterThanOrEqual(100);
  });

  it('SC-LTM-002 基于符号的精确召回: processPayment finds turn 20, not turn 50', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 1; i <= 60; i++) {
      if (i === 20) await turn(t, s.id, 'processPayment 函数有个 bug：重复扣款', '原因是 processPayment 没有幂等键，建议加上 idempotencyKey。');
      else if (i === 50) await turn(t, s.id, '我们来重构 validateOrder 函数', 'validateOrder 可以拆成三个小函数。');
      else await turn(t, s.id, `一般性讨论 ${i}`, `回答 ${i}`);
    }
    const res = expectOk(await t.engine.call('recall.search', { query: '之前 processPayment 的问题解决了吗', limit: 5 }));
    const top = res.results[0];
    expect(top?.isSummary).toBe(false);
    expect(top?.turnNo).toBe(20);
    expect(top?.explain.matchedSymbols).toEqual(['processPayment']);
    expect(res.results.some((r) => r.turnNo === 50)).toBe(false);
    expect(res.query.symbols).toContain('processPayment');
  });

  it('REQ-LTM-003/006 符号索引: the turn that declares a symbol outranks passing mentions, which plain text matching cannot tell apart', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    const implementation = [
      '这是实现：',
      '```ts',
      'export function processPayment(order: Order): Receipt {',
      '  const key = idempotencyKey(order);',
      '  if (seen.has(key)) return seen.get(key);',
      '  const receipt = gateway.charge(order.total);',
      '  seen.set(key, receipt);',
      '  return receipt;',
      '}',
      '```',
      '关键是先查幂等键再扣款，避免重复扣款。',
    ].join('\n');
    for (let i = 1; i <= 20; i++) {
      if (i === 3) await turn(t, s.id, '帮我写 processPayment 的实现', implementation);
      else await turn(t, s.id, `第${i}轮：processPayment 又被提到了`, `嗯，第${i}轮。`);
    }
    const declaration = t.driver.get<{ id: number }>("SELECT id FROM messages WHERE content LIKE '这是实现%'")?.id;
    // Plain full-text matching (bm25 over the words) ranks the short passing mentions first.
    const plain = t.driver
      .all<{ id: number }>(
        `SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH '{body extra} : ("processpayment" OR "process" OR "payment")' ORDER BY bm25(messages_fts) LIMIT 5`,
      )
      .map((r) => r.id);
    expect(plain).not.toContain(declaration);
    // The symbol index knows where processPayment is declared (relevance 0.9) and puts that turn first.
    const res = expectOk(await t.engine.call('recall.search', { query: 'processPayment 是怎么实现的', limit: 5 }));
    expect(res.results[0]).toMatchObject({ turnId: declaration, isSummary: false });
    expect(res.results[0]?.explain.matchedSymbols).toEqual(['processPayment']);
  });

  it('SC-LTM-003 滚动摘要生成: at 10 turns, turns 1-5 are summarised with symbols and conclusions, 6-10 stay full', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 1; i <= 10; i++) {
      await turn(t, s.id, `第${i}轮：OrderService 的 processPayment 有并发问题`, i === 3 ? '我们决定使用互斥锁保护关键区域。' : `分析第${i}轮的日志。`);
    }
    // Storing turns never summarises (the write stays fast); 系统执行定期摘要 — the periodic pass does.
    expect(expectOk(await t.engine.call('summary.list', { sessionId: s.id }))).toEqual([]);
    expect(expectOk(await t.engine.call('summary.roll', {}))).toMatchObject({ created: [expect.any(Number)] });
    // A second pass finds nothing more to do.
    expect(expectOk(await t.engine.call('summary.roll', {}))).toEqual({ created: [], sessions: 0 });
    const summaries = expectOk(await t.engine.call('summary.list', { sessionId: s.id }));
    expect(summaries.map((x) => [x.startTurn, x.endTurn])).toEqual([[1, 5]]);
    const [first] = summaries;
    expect(first?.keySymbols).toEqual(expect.arrayContaining(['OrderService', 'processPayment']));
    expect(first?.keyDecisions.join(' ')).toContain('互斥锁');
    expect(new TextEncoder().encode(first?.summary ?? '').length).toBeLessThan(500);
    // The summary links back to its full turns.
    const linked = expectOk(await t.engine.call('summary.turns', { id: first?.id ?? 0 }));
    expect(new Set(linked.map((m) => m.turnNo))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it('SC-LTM-004 新会话继承记忆: a new session recalls yesterday’s CacheManager discussion and its summary', async () => {
    const t = await createTestEngine();
    const yesterday = await newSession(t);
    for (let i = 1; i <= 10; i++) {
      await turn(t, yesterday.id, `继续实现 CacheManager 的缓存淘汰，第${i}步`, `CacheManager 的缓存实现用 LRU，第${i}步完成。`);
    }
    expectOk(await t.engine.call('summary.roll', {}));
    t.clock.advance(DAY_MS);
    const today = await newSession(t);
    const res = expectOk(await t.engine.call('recall.search', { query: '继续昨天的缓存实现', limit: 10, currentSessionId: today.id }));
    expect(res.results.length).toBeGreaterThan(0);
    expect(res.results.every((r) => r.conversationId === yesterday.id)).toBe(true);
    expect(res.results.some((r) => (r.content ?? r.summary ?? '').includes('CacheManager'))).toBe(true);
    expect(res.results.some((r) => r.isSummary)).toBe(true);
  });

  it('SC-LTM-005 并发会话隔离: two sessions writing at once keep their own turns', async () => {
    const t = await createTestEngine();
    const a = await newSession(t);
    const b = await newSession(t);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.engine.call('message.append', { sessionId: i % 2 ? b.id : a.id, role: 'user', content: `${i % 2 ? '项目 Y' : '项目 X'} 第 ${i} 条` }),
      ),
    ).then((all) => all.forEach((r) => expect(r.ok).toBe(true)));
    const msgsA = expectOk(await t.engine.call('message.list', { sessionId: a.id }));
    const msgsB = expectOk(await t.engine.call('message.list', { sessionId: b.id }));
    expect(msgsA).toHaveLength(20);
    expect(msgsB).toHaveLength(20);
    expect(msgsA.every((m) => m.content.startsWith('项目 X'))).toBe(true);
    expect(msgsB.every((m) => m.content.startsWith('项目 Y'))).toBe(true);
    expect(msgsA.map((m) => m.turnNo)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('SC-LTM-006 记忆清理: older than 30 days goes, the last 30 days stay, the symbol index follows', async () => {
    const t = await createTestEngine();
    const sessions: string[] = [];
    for (let day = 0; day < 60; day++) {
      const s = await newSession(t);
      sessions.push(s.id);
      await turn(t, s.id, `第${day}天：修复 handler${day} 的 TypeError`, `handler${day} 已修复。`);
      // turn() took 61 s of the day: day d's conversation ends at exactly d days + 61 s.
      t.clock.advance(DAY_MS - 61_000);
    }
    const report = expectOk(await t.engine.call('cleanup.run', { olderThanDays: 30 }));
    expect(report.conversations_deleted).toBe(30);
    expect(report.turns_deleted).toBe(60);
    expect(report.symbols_deleted).toBeGreaterThan(0);
    const left = expectOk(await t.engine.call('session.list', { limit: 100 }));
    expect(left.total).toBe(30);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM symbol_index WHERE turn_id NOT IN (SELECT id FROM messages)')?.n).toBe(0);
    const old = expectOk(await t.engine.call('recall.search', { query: 'handler3 TypeError' }));
    expect(old.results.some((r) => r.content?.includes('handler3 '))).toBe(false);
  });

  it('SC-LTM-006 记忆清理 in a conversation still in use: its recent turns stay, it goes on working, nothing of the deleted turns is left', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 1; i <= 12; i++) {
      const { user } = await turn(t, s.id, `SECRET${i} 我的旧密码是 ${1000 + i}，processPayment 第${i}步`, `记下了 SECRET${i}。`);
      // Each turn's context run quotes the conversation (L5) — and, once built, its rolling summaries (L4).
      const run = expectOk(await t.engine.call('context.build', { kind: 'chat', sessionId: s.id, message: user.message.content, excludeMessageId: user.message.id, locale: 'zh-CN' }));
      expectOk(await t.engine.call('run.complete', { runId: run.runId, status: 'completed' }));
    }
    expect(expectOk(await t.engine.call('summary.list', { sessionId: s.id })).length).toBeGreaterThan(0);
    t.clock.advance(40 * DAY_MS);
    for (let i = 13; i <= 20; i++) await turn(t, s.id, `新的第${i}轮：validateOrder 的重构`, `好的，第${i}轮。`);

    const report = expectOk(await t.engine.call('cleanup.run', { olderThanDays: 30 }));
    expect(report).toMatchObject({ conversations_deleted: 0, turns_deleted: 24 });
    expect(report.summaries_deleted).toBeGreaterThan(0);

    // Nothing of the deleted turns is left anywhere: turns, summaries, runs, the title, recent write results.
    for (const table of ['messages', 'summaries', 'context_runs', 'sessions', 'op_results']) {
      const rows = t.driver.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
      expect(rows.filter((r) => JSON.stringify(r).includes('SECRET')), table).toEqual([]);
    }
    const session = expectOk(await t.engine.call('session.get', { id: s.id }));
    expect(session.title).toContain('第13轮');
    expect(expectOk(await t.engine.call('recall.search', { query: 'SECRET3 旧密码' })).results.filter((r) => (r.content ?? r.summary ?? '').includes('SECRET'))).toEqual([]);

    // The conversation goes on: new turns are stored, and its remaining turns are summarised from turn 13.
    for (let i = 21; i <= 30; i++) await turn(t, s.id, `第${i}轮：继续 validateOrder`, `第${i}轮完成。`);
    expectOk(await t.engine.call('summary.roll', {}));
    const blocks = expectOk(await t.engine.call('summary.list', { sessionId: s.id, kind: 'rolling' })).map((x) => [x.startTurn, x.endTurn]);
    expect(blocks).toEqual([
      [13, 17],
      [18, 22],
    ]);
  });
});
