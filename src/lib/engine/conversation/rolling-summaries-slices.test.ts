import { describe, expect, it } from 'vitest';
import type { SqlDriver } from '../store/driver';
import { createMessageRepo } from '../store/message-repo';
import { createSettingsRepo } from '../store/settings-repo';
import { createSummaryRepo } from '../store/summary-repo';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { createRollingSummaries } from './rolling-summaries';

/**
 * Issue 16: the periodic rolling-summary pass found its conversations with one statement over every
 * conversation (337 ms at a million turns, the worker held throughout). Now it looks through a window of
 * conversations or rolls one conversation per step, the worker free between slices. The clock is injected
 * and counts steps, so the tests count the work in each slice.
 */
const STEPS_PER_SLICE = 3;
const WINDOW = 8;
const CONVERSATIONS = 60;

async function manyDue(): Promise<TestEngine> {
  const t = await createTestEngine();
  // Small blocks, so three turns make a conversation due.
  expectOk(await t.engine.call('settings.update', { patch: { 'chat.summary_after': 2, 'chat.summary_block': 2, 'chat.recent_full_turns': 1 } }));
  for (let c = 0; c < CONVERSATIONS; c++) {
    const s = expectOk(await t.engine.call('session.create', {}));
    for (let i = 1; i <= 3; i++) {
      t.clock.advance(60_000);
      expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: `对话${c} 第${i}轮：OrderService 的问题` }));
    }
  }
  return t;
}

function rollingOn(t: TestEngine, driver: SqlDriver) {
  const env = { driver, clock: t.clock };
  return createRollingSummaries({ env, messages: createMessageRepo(env), summaries: createSummaryRepo(env), settings: createSettingsRepo(env) });
}

const summarized = (t: TestEngine) =>
  t.driver.all<{ id: string }>("SELECT DISTINCT session_id AS id FROM summaries WHERE kind = 'rolling' ORDER BY session_id").map((r) => r.id);

describe('the rolling-summary pass in bounded slices (issue 16)', () => {
  it('looks through a window of conversations or rolls one per step, timers running between slices, and rolls the 50 most recent', async () => {
    const t = await manyDue();
    let windows = 0;
    let transactions = 0;
    const driver: SqlDriver = {
      ...t.driver,
      all: (sql, p) => (sql.includes('s.rowid > $lo') && windows++, t.driver.all(sql, p)),
      transaction: (fn) => (transactions++, t.driver.transaction(fn)),
    };
    const slices: { windows: number; transactions: number }[] = [];
    let tick = 0;
    let timers = 0;
    const beat = setInterval(() => timers++, 0);
    const result = await rollingOn(t, driver)
      .rollDueInSlices({
        budgetMs: STEPS_PER_SLICE,
        now: () => ++tick,
        window: WINDOW,
        onSlice: () => {
          slices.push({ windows, transactions });
          windows = 0;
          transactions = 0;
        },
      })
      .finally(() => clearInterval(beat));
    expect(timers).toBeGreaterThan(0);
    // Every conversation looked at (a window a step), then one conversation rolled per step.
    expect(slices.reduce((n, s) => n + s.windows, 0)).toBe(Math.ceil(CONVERSATIONS / WINDOW));
    for (const s of slices) expect(s.windows + s.transactions).toBeLessThanOrEqual(STEPS_PER_SLICE);
    expect(slices.length).toBeGreaterThanOrEqual(Math.ceil((Math.ceil(CONVERSATIONS / WINDOW) + 50) / STEPS_PER_SLICE));
    // The 50 most recently active conversations with a due block, as the one-statement pass chose.
    const recent = t.driver.all<{ id: string }>('SELECT id FROM sessions ORDER BY last_active DESC LIMIT 50').map((r) => r.id);
    expect(result.sessions).toBe(50);
    expect(result.created.length).toBeGreaterThanOrEqual(50);
    expect(summarized(t)).toEqual([...recent].sort());
  });

  it('summary.roll without an id runs the sliced pass: the rest next time, then nothing', async () => {
    const t = await manyDue();
    const first = expectOk(await t.engine.call('summary.roll', {}));
    expect(first.sessions).toBe(50);
    const second = expectOk(await t.engine.call('summary.roll', {}));
    expect(second.sessions).toBe(CONVERSATIONS - 50);
    expect(summarized(t)).toHaveLength(CONVERSATIONS);
    expect(expectOk(await t.engine.call('summary.roll', {}))).toEqual({ created: [], sessions: 0 });
  });
});
