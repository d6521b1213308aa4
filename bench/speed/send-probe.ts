/**
 * Native probe (issue 16 item 2): what a chat turn's turn.prepare costs against a recall of its own question, at
 * growing sizes, on the same engine as the DB worker (better-sqlite3, WAL). The send bench (turns.ts) divides send
 * p95 by the run's recall p95 over the corpus's query mix; this says how much of a turn is its own question's recall,
 * per question and without the turn number the bench appends. Prefills once into --dir (a million turns: minutes).
 *
 *   npx tsx bench/speed/send-probe.ts --sizes 100000,1000000 --dir /tmp/sp --turns 40
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomId, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { percentile as pct } from '../lib/stats';
import { openNative } from './native';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100000,1000000' }, dir: { type: 'string', default: '/tmp/sp' }, turns: { type: 'string', default: '100' } } });
const sizes = values.sizes.split(',').map(Number);
const QUESTIONS = ['parseConfig 登录超时 怎么处理？', 'How should processPayment handle a retry?', 'renderChart 在 Safari 上报错', 'Why does the cache miss after deploy?'];

const snap = (n: number) => join(values.dir, `turns-${n}.sqlite3`);
if (!sizes.every((n) => existsSync(snap(n)))) {
  const native = openNative({ path: join(values.dir, 'fill.sqlite3'), seed: 42, total: Math.max(...sizes) });
  for (const n of sizes) {
    await native.fillTo(n, (s) => process.stderr.write(`\r${s}`));
    native.snapshot(snap(n));
    console.error(`\nsnapshot ${n}`);
  }
  native.close();
}
for (const n of sizes) {
  const path = join(values.dir, `run-${n}.sqlite3`);
  copyFileSync(snap(n), path);
  const db = new Database(path);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA journal_mode = WAL;');
  const engine = createEngine(
    { driver: createBetterSqlite3Driver(db), clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'probe' }, startedAt: Date.now() },
    loadMigrationsFromDisk(),
  );
  const caller = createCaller({ call: (req) => engine.handle(req) });
  const ms: number[] = [];
  const recallMs: number[] = [];
  let sessionId: string | undefined;
  for (let i = 0; i < Number(values.turns); i++) {
    if (i % 10 === 0) sessionId = undefined;
    const content = `${QUESTIONS[i % QUESTIONS.length]} (${i})`;
    const t0 = performance.now();
    const res = await caller.call('turn.prepare', { ...(sessionId ? { sessionId } : {}), content, requestId: randomId(), locale: 'en' });
    ms.push(performance.now() - t0);
    if (!res.ok) throw new Error(res.error.code);
    sessionId = res.data.message.sessionId;
    const t1 = performance.now();
    await caller.call('recall.search', { query: content, limit: 5 });
    recallMs.push(performance.now() - t1);
    // finish the run so the next prepare is as in the app
    if (res.data.context.ok) {
      const f = await caller.call('turn.finish', { runId: res.data.context.run.runId, outcome: 'completed', text: 'ok, noted.', userMessageId: res.data.message.id });
      if (!f.ok) throw new Error(f.error.code);
    }
  }
  for (let q = 0; q < QUESTIONS.length; q++) {
    const pick = (xs: number[]) => xs.filter((_, i) => i % QUESTIONS.length === q);
    const bare: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      await caller.call('recall.search', { query: QUESTIONS[q] as string, limit: 5 });
      bare.push(performance.now() - t);
    }
    console.log(`  q${q}: prepare p50 ${pct(pick(ms), 50).toFixed(1)} · recall p50 ${pct(pick(recallMs), 50).toFixed(1)} · without "(i)" p50 ${pct(bare, 50).toFixed(1)}`);
  }
  console.log(`${n}: turn.prepare p50 ${pct(ms, 50).toFixed(1)} p95 ${pct(ms, 95).toFixed(1)} · recall.search p50 ${pct(recallMs, 50).toFixed(1)} p95 ${pct(recallMs, 95).toFixed(1)}`);
  db.close();
}
