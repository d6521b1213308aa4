/**
 * Native A/B of a chat turn's turn.prepare (issue 16 item 2): this checkout's engine and another's (--a, e.g. main
 * extracted to /tmp/x-A) in one process, each on its own copy of the same prefilled database (send-probe.ts's
 * snapshots in --dir, made by running send-probe.ts first), turn by turn alternated — A then B, then B then A — so
 * that the load of a shared machine falls on both alike. Times turn.prepare (the message stored, the context built,
 * the run stored) and a recall of the same question right after it; turn.finish runs untimed, as in the app. Prints
 * p50/p95 per side, send p95 ÷ recall p95, and the median of the paired differences (B − A, same turn number).
 * CPU and statements only, not flushes: this better-sqlite3 reports synchronous=FULL in WAL, yet `strace -f -c -e
 * trace=fsync,fdatasync` counted 11 fsyncs in a whole 50-turn send-probe run on either side (d28) — the COMMIT's
 * sync the browser pays on OPFS (FileSystemSyncAccessHandle.flush) is not in these figures.
 *
 *   npx tsx bench/speed/send-probe.ts --sizes 1000,10000 --dir /tmp/sp --turns 1   # once: the snapshots
 *   npx tsx bench/speed/send-ab.ts --a /tmp/x-A --sizes 1000,10000 --dir /tmp/sp --turns 200
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, percentile as pct } from '../lib/stats';

const { values } = parseArgs({
  options: { a: { type: 'string' }, sizes: { type: 'string', default: '1000,10000' }, dir: { type: 'string', default: '/tmp/sp' }, turns: { type: 'string', default: '200' } },
});
if (!values.a) throw new Error('--a <checkout> is required (the tree to compare this one with)');
const QUESTIONS = ['parseConfig 登录超时 怎么处理？', 'How should processPayment handle a retry?', 'renderChart 在 Safari 上报错', 'Why does the cache miss after deploy?'];

type Side = { name: 'A' | 'B'; call: (method: string, input: unknown) => Promise<{ ok: boolean; data?: any; error?: { code: string } }>; close(): void };

/** One checkout's engine on its own copy of the snapshot: imported from that checkout's source. */
async function open(name: Side['name'], root: string, snapshot: string, n: number): Promise<Side> {
  const mod = async (p: string) => import(pathToFileURL(join(root, 'src/lib', p)).href);
  const [{ createEngine }, { createBetterSqlite3Driver }, { loadMigrationsFromDisk }, { createCaller }, { randomId, systemClock }, { silentLogger }] = await Promise.all([
    mod('engine/engine.ts'),
    mod('engine/store/better-sqlite3-driver.ts'),
    mod('engine/store/migrations-fs.ts'),
    mod('engine/client/caller.ts'),
    mod('domain/clock.ts'),
    mod('domain/log.ts'),
  ]);
  const path = join(values.dir as string, `ab-${name}-${n}.sqlite3`);
  copyFileSync(snapshot, path);
  const db = new Database(path);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA journal_mode = WAL;');
  const engine = createEngine(
    { driver: createBetterSqlite3Driver(db), clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'probe' }, startedAt: Date.now() },
    loadMigrationsFromDisk(),
  );
  const caller = createCaller({ call: (req: unknown) => engine.handle(req) });
  return { name, call: (m, i) => caller.call(m, i), close: () => db.close() };
}

for (const n of values.sizes.split(',').map(Number)) {
  const snapshot = join(values.dir, `turns-${n}.sqlite3`);
  if (!existsSync(snapshot)) throw new Error(`no ${snapshot}: run send-probe.ts with --dir ${values.dir} first`);
  const sides = [await open('A', resolve(values.a), snapshot, n), await open('B', resolve('.'), snapshot, n)];
  const prepare: Record<string, number[]> = { A: [], B: [] };
  const recall: Record<string, number[]> = { A: [], B: [] };
  const session: Record<string, string | undefined> = {};
  for (let i = 0; i < Number(values.turns); i++) {
    const content = `${QUESTIONS[i % QUESTIONS.length]} (${i})`;
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
      if (i % 10 === 0) session[side.name] = undefined;
      const sid = session[side.name];
      const t0 = performance.now();
      const res = await side.call('turn.prepare', { ...(sid ? { sessionId: sid } : {}), content, requestId: `ab-${side.name}-${n}-${i}`, locale: 'en' });
      prepare[side.name]!.push(performance.now() - t0);
      if (!res.ok) throw new Error(res.error?.code);
      session[side.name] = res.data.message.sessionId;
      const t1 = performance.now();
      await side.call('recall.search', { query: content, limit: 5 });
      recall[side.name]!.push(performance.now() - t1);
      if (res.data.context.ok) {
        const f = await side.call('turn.finish', { runId: res.data.context.run.runId, outcome: 'completed', text: 'ok, noted.', userMessageId: res.data.message.id });
        if (!f.ok) throw new Error(f.error?.code);
      }
    }
  }
  for (const s of sides) s.close();
  const line = (k: 'A' | 'B') =>
    `${k}: turn.prepare p50 ${pct(prepare[k]!, 50).toFixed(1)} p95 ${pct(prepare[k]!, 95).toFixed(1)} · recall p50 ${pct(recall[k]!, 50).toFixed(1)} p95 ${pct(recall[k]!, 95).toFixed(1)} · send p95 ÷ recall p95 ${(pct(prepare[k]!, 95) / pct(recall[k]!, 95)).toFixed(2)}`;
  const diffs = prepare.B!.map((b, i) => b - (prepare.A![i] as number));
  console.log(`${n} turns, ${values.turns} alternated turns each\n  ${line('A')}\n  ${line('B')}\n  turn.prepare B − A, median of the paired differences: ${median(diffs).toFixed(2)} ms`);
}
