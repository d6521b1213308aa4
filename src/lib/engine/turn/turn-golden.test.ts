/**
 * Issue 16 item 2: a turn now commits its message without a flush and reads the settings once — and must send the
 * same request and store the same rows as before. A fixed scripted session (memories to retrieve, an older
 * conversation to recall, enough turns for rolling summaries, a retry, a build stopped by its requestId) is played on
 * the in-memory engine; every turn.prepare answer and every row of every table are compared with what the engine
 * before the change produced on the same script — kept as a SHA-256 per answer and per table, so a difference names
 * where it is (tests/fixtures/turn-prepare-golden.json, written by this file with TURN_GOLDEN_WRITE=1 on main at
 * e4573d5; its FTS5 entries rewritten as index instances at ab59be1, before the merge keeper changed the segment
 * layout). Fixed clock and sequential ids make both runs deterministic.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { SqlDriver } from '../store/driver';
import { createTestEngine, expectOk, type TestEngine } from '../testing';

const FIXTURE = join(process.cwd(), 'tests/fixtures/turn-prepare-golden.json');

const MEMORIES = [
  'The user prefers TypeScript strict mode in every project.',
  'processPayment in src/order.ts retries twice before it gives up.',
  '用户的登录超时设置是 30 分钟。',
  'The deploy cache is keyed by the commit hash.',
];
const OLDER = ['How does processPayment lock the order row?', 'It takes a row lock first.', 'Why does the cache miss after deploy?', 'The key changed with the commit.'];
const TURNS = [
  'How do I fix processPayment in src/order.ts?',
  '登录超时 怎么处理？',
  'Should the retry in processPayment back off?',
  'I prefer short answers with code.',
  'What does renderChart do on Safari?',
  'Why does the cache miss after deploy?',
  'parseConfig 登录超时 的默认值是多少？',
  'Can processPayment be idempotent?',
];

/**
 * An FTS5 index's segment layout (its `_data`, `_idx` and `_config` rows) depends on when segments are merged, which
 * is the merge keeper's business, not the turn's; what the index holds is compared instead: every (term, row,
 * column, offset) instance, read through an fts5vocab table.
 */
const FTS_LAYOUT = /_(data|idx|config)$/;

/** Every row of every table, in rowid order (blobs as hex), for a byte-for-byte comparison; FTS5 indexes by content. */
function allRows(driver: SqlDriver): Record<string, unknown[]> {
  const tables = driver.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name");
  const fts = driver.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%' ORDER BY name").map((t) => t.name);
  const shadow = (name: string) => fts.some((f) => name.startsWith(`${f}_`) && FTS_LAYOUT.test(name.slice(f.length)));
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    if (shadow(name)) continue;
    const withoutRowid = /WITHOUT ROWID/i.test(driver.get<{ sql: string }>('SELECT sql FROM sqlite_master WHERE name = ?', [name])?.sql ?? '');
    const rows = driver.all<Record<string, unknown>>(`SELECT * FROM "${name}"${withoutRowid ? '' : ' ORDER BY rowid'}`);
    out[name] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'bigint' ? String(v) : v])));
    if (withoutRowid) out[name].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  for (const name of fts) {
    driver.run(`CREATE VIRTUAL TABLE temp."${name}_golden" USING fts5vocab(main, "${name}", 'instance')`);
    out[`${name} instances`] = driver.all(`SELECT term, doc, col, offset FROM temp."${name}_golden" ORDER BY term, doc, col, offset`);
    driver.run(`DROP TABLE temp."${name}_golden"`);
  }
  return out;
}

async function play(t: TestEngine) {
  const answers: unknown[] = [];
  let op = 0;
  const opId = () => `golden-op-${String(++op).padStart(4, '0')}`;
  for (const content of MEMORIES) expectOk(await t.engine.call('memory.create', { content }, { opId: opId() }));
  // An older conversation, so the turn's recall finds something outside the current one.
  const older = expectOk(await t.engine.call('session.create', {}, { opId: opId() }));
  for (const [i, content] of OLDER.entries())
    expectOk(await t.engine.call('message.append', { sessionId: older.id, role: i % 2 === 0 ? 'user' : 'assistant', content }, { opId: opId() }));
  t.clock.advance(60_000);
  let sessionId: string | undefined;
  const turn = async (ask: { content?: string; retryOf?: number }, i: number) => {
    const prepared = expectOk(
      await t.engine.call('turn.prepare', { ...(sessionId ? { sessionId } : {}), ...ask, locale: 'en', requestId: `golden-request-${i}` }, { opId: opId() }),
    );
    answers.push(prepared);
    sessionId = prepared.session.id;
    if (prepared.context.ok)
      expectOk(
        await t.engine.call(
          'turn.finish',
          { runId: prepared.context.run.runId, outcome: 'completed', text: `Reply ${i}: ${ask.content ?? 'again'}`, userMessageId: prepared.message.id, model: 'scripted', toolMemoryIds: [] },
          { opId: opId() },
        ),
      );
    t.clock.advance(30_000);
    return prepared;
  };
  for (let round = 0; round < 2; round++) for (const [i, content] of TURNS.entries()) await turn({ content }, round * 100 + i);
  const last = await turn({ content: 'One more question about processPayment.' }, 900);
  await turn({ retryOf: last.message.id }, 901);
  // A build stopped by its requestId: the message is stored, the answer says CANCELED.
  const pending = t.engine.call('turn.prepare', { sessionId, content: 'Stop this one.', locale: 'en', requestId: 'golden-request-stop' }, { opId: opId() });
  expectOk(await t.engine.call('context.cancel', { requestId: 'golden-request-stop' }));
  answers.push(expectOk(await pending));
  return { answers, rows: allRows(t.driver) };
}

it('a scripted session sends the same requests and stores the same rows as before the one-flush turn', async () => {
  const t = await createTestEngine();
  const json = await play(t);
  const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
  const now = { answers: json.answers.map(sha), rows: Object.fromEntries(Object.entries(json.rows).map(([k, v]) => [k, sha(v)])) };
  if (process.env.TURN_GOLDEN_WRITE === '1') writeFileSync(FIXTURE, `${JSON.stringify(now, null, 1)}\n`);
  expect(existsSync(FIXTURE)).toBe(true);
  const before = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof now;
  // The script did what it is meant to: runs stored, summaries rolled, memories retrieved, the last build stopped.
  expect(json.rows.context_runs?.length).toBeGreaterThan(15);
  expect(json.rows.summaries?.length).toBeGreaterThan(0);
  expect(json.answers.some((a) => JSON.stringify(a).includes('"memory:'))).toBe(true);
  expect(JSON.stringify(json.answers.at(-1))).toContain('CANCELED');
  expect(now.answers).toEqual(before.answers);
  expect(now.rows).toEqual(before.rows);
});
