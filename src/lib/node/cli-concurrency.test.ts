/**
 * SC-LTM-005 / REQ-LTM-008 on a real file: two CLI processes write into the same new database at the
 * same time (WAL, busy_timeout=5000, BEGIN IMMEDIATE). Both must succeed, nothing may be mixed up.
 */
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOk } from '../engine/testing';
import { openFileEngine } from './open-file-db';
import { jsonOf, spawnCli, tempProject } from './testing';

const TURNS = 50;

/** A `store --stdin` process: lines go in when we say, results come out one line per turn. */
function writer(dbPath: string, conversation: string) {
  const child = spawnCli(['store', '--db', dbPath, '--conversation', conversation, '--stdin']);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const results: Record<string, unknown>[] = [];
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number>((done) => child.on('close', (code) => done(code ?? -1)));
  return {
    send: (content: string) => child.stdin.write(`${JSON.stringify({ role: 'user', content })}\n`),
    async next() {
      const line = await lines.next();
      if (line.done) throw new Error(`writer ${conversation} ended early: ${stderr}`);
      results.push(jsonOf(line.value));
    },
    async finish() {
      child.stdin.end();
      for (let line = await lines.next(); !line.done; line = await lines.next()) results.push(jsonOf(line.value));
      const code = await exited;
      return { code, stderr, results };
    },
  };
}

describe('SC-LTM-005 concurrent sessions (two processes, one file)', () => {
  const project = tempProject();
  afterAll(() => project.remove());

  it('two processes storing 50 turns each into a new database both succeed, each conversation keeps exactly its own turns', async () => {
    const dbPath = join(project.dir, '.engram', 'conversation-memory.db');
    const a = writer(dbPath, 'conv-project-x');
    const b = writer(dbPath, 'conv-project-y');
    // Both open the (not yet existing) file and store their first turn; only then does the rest go in,
    // so the remaining 49 + 49 writes overlap in time.
    a.send('project X turn 1: OrderService');
    b.send('project Y turn 1: CacheManager');
    await Promise.all([a.next(), b.next()]);
    for (let i = 2; i <= TURNS; i++) {
      a.send(`project X turn ${i}: OrderService`);
      b.send(`project Y turn ${i}: CacheManager`);
    }
    const [ra, rb] = await Promise.all([a.finish(), b.finish()]);
    // No lock timeouts, no errors: both exit 0 with every turn stored. A writer that waited ~1 s for the other
    // (a loaded machine) says so on stderr; that notice is the only thing stderr may hold.
    const notices = (stderr: string) => stderr.split('\n').filter(Boolean).map((l) => Object.keys(jsonOf(l)).join());
    expect([ra.code, rb.code]).toEqual([0, 0]);
    expect([...notices(ra.stderr), ...notices(rb.stderr)].filter((k) => k !== 'waiting'), ra.stderr + rb.stderr).toEqual([]);
    expect(ra.results).toHaveLength(TURNS);
    expect(rb.results).toHaveLength(TURNS);

    const db = openFileEngine({ dbPath });
    try {
      for (const [id, tag] of [['conv-project-x', 'X'], ['conv-project-y', 'Y']] as const) {
        const messages = expectOk(await db.engine.call('message.list', { sessionId: id, limit: 1000 }));
        expect(messages.map((m) => m.turnNo)).toEqual(Array.from({ length: TURNS }, (_, i) => i + 1));
        expect(messages.map((m) => m.content)).toEqual(Array.from({ length: TURNS }, (_, i) => `project ${tag} turn ${i + 1}: ${tag === 'X' ? 'OrderService' : 'CacheManager'}`));
        expect(expectOk(await db.engine.call('session.get', { id })).turnCount).toBe(TURNS);
      }
      const ids = [...ra.results, ...rb.results].map((r) => r.turn_id);
      expect(new Set(ids).size).toBe(2 * TURNS);
      // The symbol index points each symbol at its own conversation's turns only.
      const symbolTurns = db.driver.all<{ symbol: string; session_id: string; n: number }>(
        `SELECT y.symbol, m.session_id, COUNT(*) AS n FROM symbol_index y JOIN messages m ON m.id = y.turn_id
          WHERE y.symbol IN ('OrderService', 'CacheManager') GROUP BY y.symbol, m.session_id ORDER BY y.symbol`,
      );
      expect(symbolTurns).toEqual([
        { symbol: 'CacheManager', session_id: 'conv-project-y', n: TURNS },
        { symbol: 'OrderService', session_id: 'conv-project-x', n: TURNS },
      ]);
    } finally {
      db.close();
    }
  });
});
