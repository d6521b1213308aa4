/**
 * The export start, side by side (issue 16): `backup.exportBegin` and the whole export of a native store of
 * `--turns` turns (bulk-filled as bench:speed fills it), on this checkout and on another checkout of the repo
 * (`--ref`, e.g. main's one-call start in a `git worktree add --detach /tmp/main-ref <commit>` with this
 * checkout's node_modules linked in). Both run in this one process, one after the other, on the same file.
 *
 *   npx tsx bench/speed/export-steps.ts [--turns 20000,100000] [--ref /tmp/main-ref] [--ref-max-turns 20000] [--dir /tmp]
 *
 * Per size and checkout: begin (ms), the whole export (begin + every 1 MB piece, as the CLI reads it), the longest
 * the event loop went without a turn while it ran (what a foreground call waits at most), the longest piece,
 * and a too-large export's refusal (the limit set to a quarter of the file): how long until it is refused.
 * A diagnostic on a native engine; prints a markdown table (the figures that count are ratios in one run).
 */
import Database from 'better-sqlite3';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { randomId, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { filledSnapshot } from './native';
import { timedDriver, type StatementStats } from './statement-stats';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '20000' },
    ref: { type: 'string' },
    // The ref's whole export may be quadratic (main's was): run it only up to this many turns.
    'ref-max-turns': { type: 'string', default: '1000000000' },
    dir: { type: 'string', default: '/tmp' },
    // Also time every statement of this checkout's begin and print the slowest (statement-stats.ts).
    statements: { type: 'boolean', default: false },
  },
});
const sizes = (values.turns as string).split(',').map(Number);
const here = resolve(import.meta.dirname, '../..');
const roots = [{ name: 'this checkout', root: here }, ...(values.ref ? [{ name: `ref ${values.ref}`, root: resolve(values.ref) }] : [])];
const PIECE = 1024 * 1024;

type Service = {
  begin(scope: { kind: 'all' }): Promise<{ exportId: string; totalRows: number; estimatedBytes: number }>;
  chunk(id: string, maxChars: number): Promise<{ text: string; done: boolean }>;
};
type Factory = (deps: { env: unknown; files: undefined; maxBytes?: number }) => Service;

/** The longest gap between two turns of the event loop while `fn` runs: the longest a queued call would wait. */
async function probed<T>(fn: () => Promise<T>): Promise<{ value: T; longestMs: number; ms: number }> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const t0 = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - t0;
    longest = Math.max(longest, performance.now() - last);
    return { value, longestMs: longest, ms };
  } finally {
    running = false;
  }
}

function open(path: string) {
  const db = new Database(path);
  // The browser's pragmas (store/open-wasm.ts tune()).
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY;');
  return db;
}

const rows: string[] = [];
const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
for (const turns of sizes) {
  const path = `${values.dir}/export-steps-${turns}.db`;
  await filledSnapshot(path, turns);
  for (const { name, root } of roots) {
    if (root !== here && turns > Number(values['ref-max-turns'])) continue;
    const { createExportService } = (await import(pathToFileURL(`${root}/src/lib/engine/backup/export-service.ts`).href)) as { createExportService: Factory };
    const { createBetterSqlite3Driver } = (await import(pathToFileURL(`${root}/src/lib/engine/store/better-sqlite3-driver.ts`).href)) as {
      createBetterSqlite3Driver: (db: Database.Database) => unknown;
    };
    const db = open(path);
    const stats: StatementStats = new Map();
    const plain = createBetterSqlite3Driver(db) as Parameters<typeof timedDriver>[0];
    const driver = values.statements && root === here ? timedDriver(plain, stats, { keyLength: 110 }) : plain;
    const env = { driver, clock: systemClock, ids: randomId, log: silentLogger };
    const service = createExportService({ env, files: undefined });
    let longestPiece = 0;
    let beginMs = 0;
    let beginWait = 0;
    let bytes = 0;
    let totalRows = 0;
    const whole = await probed(async () => {
      const b = await probed(() => service.begin({ kind: 'all' }));
      for (const [sql, st] of [...stats].sort((x, y) => y[1].total - x[1].total).slice(0, 12))
        console.log(`${String(st.calls).padStart(7)}× ${st.total.toFixed(0).padStart(7)} ms total ${st.max.toFixed(1).padStart(7)} max  ${sql}`);
      stats.clear();
      beginMs = b.ms;
      beginWait = b.longestMs;
      totalRows = b.value.totalRows;
      for (;;) {
        const t0 = performance.now();
        const c = await service.chunk(b.value.exportId, PIECE);
        longestPiece = Math.max(longestPiece, performance.now() - t0);
        bytes += Buffer.byteLength(c.text);
        if (c.done) return;
        // Each piece is its own call to the worker: the loop turns between them (as between two messages).
        await new Promise((r) => setImmediate(r));
      }
    });
    // A too-large export: the limit a quarter of this file.
    const tight = createExportService({ env, files: undefined, maxBytes: Math.floor(bytes / 4) });
    const refusal = await probed(() => tight.begin({ kind: 'all' }).then(() => 'accepted', (e: { details?: { reason?: string } }) => e.details?.reason ?? String(e)));
    db.close();
    const line = `| ${turns.toLocaleString('en')} | ${name} | ${totalRows} | ${(bytes / 1e6).toFixed(1)} MB | ${f(beginMs)} | ${f(beginWait)} | ${f(whole.ms)} | ${f(whole.longestMs)} | ${f(longestPiece)} | ${f(refusal.ms)} (${refusal.value}) | ${f(refusal.longestMs)} |`;
    console.log(line);
    rows.push(line);
  }
}
console.log(`\nload average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
console.log('| turns | code | rows | file | begin ms | longest wait in begin | whole export ms | longest wait in export | longest 1 MB piece | too-large refused after ms | longest wait then |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
