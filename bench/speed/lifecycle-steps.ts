/**
 * `npx tsx bench/speed/lifecycle-steps.ts [--old 5000] [--fresh 5000]`: where a lifecycle slice spends its time,
 * statement by statement, on the native engine (better-sqlite3) — issue 19's stall hunt. The lifecycle benchmark's
 * data (lifecycle-prefill.ts's old project, then `fresh` episodes recorded now into two projects, as the load does
 * before the clean-up starts), then decay, compress and purge run through runInSlices with every statement timed.
 * Prints, per phase, the slices (count, median, longest) and the statements by total time (calls, total, longest).
 * A diagnostic, not a result file: the figures that count are the Chromium run's (lifecycle-run.ts).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fixedClock, randomId } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import { createLedger } from '../../src/lib/engine/lifecycle/ledger';
import { compressPass, decayPass, purgePass, type Pass, type PassDeps } from '../../src/lib/engine/lifecycle/passes';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { runInSlices } from '../../src/lib/engine/store/slices';
import { generateTurns } from '../lib/corpus';
import { createPrng } from '../lib/prng';
import { writeOldEpisodes } from './lifecycle-prefill';
import { timedDriver, type StatementStats } from './statement-stats';

const { values } = parseArgs({ options: { old: { type: 'string', default: '5000' }, fresh: { type: 'string', default: '5000' }, seed: { type: 'string', default: '7' } } });
const seed = Number(values.seed);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-lifecycle-steps-'));
  try {
    const file = join(dir, 'old.sqlite3');
    await writeOldEpisodes(file, { seed, count: Number(values.old) });
    const db = new Database(readFileSync(file));
    const now = Date.now();
    const clock = fixedClock(now);
    const driver = createBetterSqlite3Driver(db);
    const engine = createEngine({ driver, clock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'native benchmark' }, startedAt: now }, loadMigrationsFromDisk());
    const caller = createCaller({ call: (req) => engine.handle(req) });
    const must = async (m: string, input: unknown) => {
      const res = await caller.call(m as never, input as never);
      if (!res.ok) throw new Error(`${m}: ${res.error.code} ${res.error.message}`);
      return res.data as { id: string };
    };
    const texts = [...generateTurns({ seed, count: 1_000 })].map((t) => t.content);
    const r = createPrng(seed);
    const projects = [await must('project.create', { name: 'a' }), await must('project.create', { name: 'b' })];
    for (let i = 0; i < Number(values.fresh); i++) {
      clock.set(now - (Number(values.fresh) - i) * 1000);
      const n = r.int(1, 3);
      await must('episode.record', { skillId: 'continue', projectId: projects[i % 2]!.id, input: r.pick(texts), candidates: Array.from({ length: n }, () => r.pick(texts)), selectedIndex: r.int(0, n - 1) });
    }
    clock.set(now);
    const phases: [string, (d: PassDeps) => Pass][] = [['decay', decayPass], ['compress', compressPass], ['purge', purgePass]];
    for (const [name, make] of phases) {
      const stats: StatementStats = new Map();
      const inStatements = { ms: 0 };
      const d = timedDriver(driver, stats, { onStatement: (ms) => (inStatements.ms += ms), wholeTransaction: true });
      const pass = make({ driver: d, clock, ledger: createLedger(d, clock) });
      const sliceMs: number[] = [];
      let longest = { ms: 0, statements: 0, steps: 0 };
      const inSteps = { ms: 0 };
      const slices = await runInSlices({
        driver: d,
        step: () => {
          const t0 = performance.now();
          try {
            return pass.step();
          } finally {
            inSteps.ms += performance.now() - t0;
          }
        },
        onSlice: (ms) => {
          sliceMs.push(ms);
          if (ms > longest.ms) longest = { ms, statements: inStatements.ms, steps: inSteps.ms };
          inStatements.ms = 0;
          inSteps.ms = 0;
        },
      });
      sliceMs.sort((a, b) => a - b);
      console.log(`\n${name}: the longest slice ${longest.ms.toFixed(1)} ms, ${longest.statements.toFixed(1)} ms of it in statements, ${longest.steps.toFixed(1)} ms in steps (the rest: the commit)`);
      const f = (n: number) => n.toFixed(2).padStart(9);
      console.log(`\n${name}: ${slices} slices, median ${f(sliceMs[Math.floor(sliceMs.length / 2)] ?? 0)} ms, longest ${f(sliceMs.at(-1) ?? 0)} ms; ${JSON.stringify(pass.report)}`);
      console.log('    calls     total ms   longest ms  statement');
      for (const [sql, s] of [...stats].sort((a, b) => b[1].total - a[1].total).slice(0, 12)) console.log(`${String(s.calls).padStart(9)} ${f(s.total)}    ${f(s.max)}  ${sql}`);
    }
    engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
