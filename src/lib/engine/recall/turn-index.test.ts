import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../domain/log';
import type { SqlDriver } from '../store/driver';
import { migrate } from '../store/migrate';
import { migrations } from '../store/migrations';
import { openWasmDatabase } from '../store/open-wasm';
import { createTurnIndex } from './turn-index';

/** The database at schema `upTo` (every migration when omitted), in memory. */
async function databaseAt(upTo?: number): Promise<SqlDriver> {
  const { driver } = await openWasmDatabase({ persistent: false, log: silentLogger });
  migrate(driver, upTo === undefined ? migrations : migrations.filter((m) => m.version <= upTo), () => 1);
  return driver;
}

/** Two conversations, each with rolling summaries over blocks of ten turns and a compact one over its first twenty. */
function seedSummaries(driver: SqlDriver): void {
  for (const s of ['conv-a', 'conv-b']) {
    driver.run('INSERT INTO sessions (id, title, created_at, last_active) VALUES (?, ?, ?, ?)', [s, `title ${s}`, 1, 2]);
    for (let block = 0; block < 4; block++)
      driver.run('INSERT INTO summaries (session_id, kind, start_turn, end_turn, summary, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
        s,
        'rolling',
        block * 10 + 1,
        block * 10 + 10,
        `block ${block} of ${s}`,
        100 + block,
      ]);
    driver.run('INSERT INTO summaries (session_id, kind, start_turn, end_turn, summary, created_at) VALUES (?, ?, ?, ?, ?, ?)', [s, 'compact', 1, 20, 'compact', 200]);
  }
}

const ASKED = [
  { sessionId: 'conv-a', turnNo: 3 },
  { sessionId: 'conv-a', turnNo: 25 },
  { sessionId: 'conv-b', turnNo: 40 },
  { sessionId: 'conv-b', turnNo: 41 },
  { sessionId: 'conv-c', turnNo: 1 },
];

/** summaryBlocks' statement as the turn index runs it, and SQLite's plan for it. */
function summaryBlocksPlan(driver: SqlDriver): string[] {
  const seen: { sql: string; params: unknown }[] = [];
  const spy: SqlDriver = { ...driver, all: (sql, params) => (seen.push({ sql, params }), driver.all(sql, params)) };
  createTurnIndex(spy).summaryBlocks(ASKED);
  expect(seen).toHaveLength(1);
  const { sql, params } = seen[0]!;
  return driver.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never).map((r) => r.detail);
}

describe('the turn index’s reads on a cold page cache (issue 16 item 3)', () => {
  it('finds the rolling summary of each head turn in the index alone, without reading a summary’s row', async () => {
    const driver = await databaseAt();
    seedSummaries(driver);
    const plan = summaryBlocksPlan(driver);
    // A covering index: no lookup into summaries, whose rows carry the summary text (a page read per match).
    expect(plan.some((d) => /COVERING INDEX summaries_session/.test(d))).toBe(true);
    expect(plan.some((d) => /SEARCH su USING INDEX/.test(d))).toBe(false);
    expect(
      createTurnIndex(driver)
        .summaryBlocks(ASKED)
        .map((b) => [b.sessionId, b.startTurn, b.endTurn, b.createdAt])
        .sort(),
    ).toEqual([
      ['conv-a', 1, 10, 100],
      ['conv-a', 21, 30, 102],
      ['conv-b', 31, 40, 103],
    ]);
  });

  it('upgrades a database of the previous schema: the same blocks answered, now from the index', async () => {
    const upgrade = migrations.find((m) => m.name.endsWith('-summary-blocks-index'))!;
    const driver = await databaseAt(upgrade.version - 1);
    seedSummaries(driver);
    const before = createTurnIndex(driver).summaryBlocks(ASKED);
    expect(summaryBlocksPlan(driver).some((d) => /COVERING INDEX/.test(d))).toBe(false);
    expect(before).toHaveLength(3);

    const report = migrate(driver, migrations, () => 2);
    expect(report.applied[0]).toBe(upgrade.name);
    const columns = driver.all<{ name: string }>("SELECT name FROM pragma_index_info('summaries_session') ORDER BY seqno").map((r) => r.name);
    expect(columns).toEqual(['session_id', 'end_turn', 'start_turn', 'kind', 'created_at']);
    expect(createTurnIndex(driver).summaryBlocks(ASKED)).toEqual(before);
    expect(summaryBlocksPlan(driver).some((d) => /COVERING INDEX summaries_session/.test(d))).toBe(true);
  });
});
