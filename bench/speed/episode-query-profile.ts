/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): episode.query statement by statement at 10,000
 * episodes, on the engine over native SQLite (better-sqlite3): CPU ms per statement kind, how often it runs per query
 * and the rows it returns, and the CPU spent outside statements (d21).
 *
 *   npx tsx bench/speed/episodes-native.ts --out /tmp/q.json --keep /tmp/ep.db
 *   npx tsx bench/speed/episode-query-profile.ts --db /tmp/ep.db --queries /tmp/q.json [--rounds 3]
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sequentialIds, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createEngine } from '../../src/lib/engine/engine';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import type { SqlDriver } from '../../src/lib/engine/store/driver';
import { recallMatch } from '../../src/lib/engine/episodes/recall';
import { cpuMs } from './cpu-timed';

const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.db || !values.queries) throw new Error('usage: --db <file from episodes-native --keep> --queries <file from episodes-native --out>');
const db = new Database(readFileSync(values.db));
let on = false;
const stats = new Map<string, { n: number; cpu: number; rows: number }>();
const base = createBetterSqlite3Driver(db);
const timed = <R>(sql: string, f: () => R): R => {
  if (!on) return f();
  const c0 = cpuMs();
  const out = f();
  const k = sql.replace(/\s+/g, ' ').replace(/^SELECT e\.rid.*?FROM/, 'SELECT <score columns> FROM').slice(0, 110);
  const v = stats.get(k) ?? { n: 0, cpu: 0, rows: 0 };
  v.n++;
  v.cpu += cpuMs() - c0;
  v.rows += Array.isArray(out) ? out.length : 0;
  stats.set(k, v);
  return out;
};
const driver: SqlDriver = { ...base, all: (sql, p) => timed(sql, () => base.all(sql, p)), get: (sql, p) => timed(sql, () => base.get(sql, p)), run: (sql, p) => timed(sql, () => base.run(sql, p)) };
const engine = createEngine({ driver, clock: systemClock, ids: sequentialIds('p'), log: silentLogger, storage: { kind: 'memory', reason: 'profile' }, startedAt: Date.now() }, loadMigrationsFromDisk());
const inputs = (JSON.parse(readFileSync(values.queries, 'utf8')) as { input: unknown }[]).map((q) => q.input);
const rounds = Number(values.rounds);
let total = 0;
for (let r = 0; r < rounds; r++) {
  for (const input of inputs) {
    on = true;
    const c0 = cpuMs();
    const res = await engine.handle({ id: 1, method: 'episode.query', input } as never);
    total += cpuMs() - c0;
    on = false;
    if (!(res as { ok: boolean }).ok) throw new Error(JSON.stringify(res));
  }
}
const n = inputs.length * rounds;
console.log(`${inputs.length} queries × ${rounds} rounds; episode.query CPU ms per query ${(total / n).toFixed(2)}; per statement kind:`);
let inStatements = 0;
for (const [k, v] of [...stats].sort((a, b) => b[1].cpu - a[1].cpu)) {
  inStatements += v.cpu;
  console.log(`  ${(v.cpu / n).toFixed(3).padStart(7)} ms  ×${(v.n / n).toFixed(2)}  rows ${(v.rows / n).toFixed(1).padStart(5)}  ${k}`);
}
console.log(`  ${((total - inStatements) / n).toFixed(3).padStart(7)} ms  outside statements (JS: match building, scoring, matched terms)`);
let mcpu = 0;
for (const input of inputs) {
  const c0 = cpuMs();
  recallMatch((input as { text: string }).text);
  mcpu += cpuMs() - c0;
}
console.log(`  of which recallMatch (keywords, pairs) ${(mcpu / inputs.length).toFixed(3)} ms`);
