/**
 * The old history the lifecycle benchmark's clean-up works on (issue 19): `count` episodes of an older project,
 * recorded with `episode.record` by the same engine on native SQLite (better-sqlite3) on a clock set back 100 to
 * 500 days, so the decay, the 180-day TTL (compression) and the 365-day TTL (deletion) all have something to do.
 * The file is imported into the browser's OPFS pool before the DB worker opens it (import.worker.ts), like the
 * speed benchmark's prefill (native.ts).
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { DAY_MS, fixedClock, randomId } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import type { Input, Method, Output } from '../../src/lib/engine/protocol/contract';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { generateTurns } from '../lib/corpus';
import { createPrng } from '../lib/prng';
import { WASM_PAGE_SIZE } from './native';

export async function writeOldEpisodes(path: string, opts: { seed: number; count: number }): Promise<{ bytes: number; oldest: number; newest: number }> {
  const db = new Database(':memory:');
  db.pragma(`page_size = ${WASM_PAGE_SIZE}`);
  const now = Date.now();
  const clock = fixedClock(now);
  const engine = createEngine(
    { driver: createBetterSqlite3Driver(db), clock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'native benchmark' }, startedAt: now },
    loadMigrationsFromDisk(),
  );
  const caller = createCaller({ call: (req) => engine.handle(req) });
  const must = async <M extends Method>(m: M, input: Input<M>): Promise<Output<M>> => {
    const res = await caller.call(m, input);
    if (!res.ok) throw new Error(`native ${m}: ${res.error.code} ${res.error.message}`);
    return res.data;
  };
  const r = createPrng(opts.seed + 190);
  const texts = [...generateTurns({ seed: opts.seed + 190, count: 1_000 })].map((t) => t.content);
  clock.set(now - 520 * DAY_MS);
  const project = await must('project.create', { name: 'last year’s novel' });
  const doc = await must('document.create', { projectId: project.id, title: 'old chapter', content: texts.slice(0, 20).join('\n\n') });
  // Oldest first, as they were written: 500 days ago up to 100 days ago.
  for (let i = 0; i < opts.count; i++) {
    clock.set(now - Math.round((500 - (400 * i) / Math.max(1, opts.count - 1)) * DAY_MS));
    const n = r.int(1, 3);
    await must('episode.record', {
      skillId: r.chance(0.5) ? 'continue' : 'polish',
      projectId: project.id,
      documentId: doc.id,
      input: r.pick(texts),
      candidates: Array.from({ length: n }, () => r.pick(texts)),
      selectedIndex: r.chance(0.15) ? -1 : r.int(0, n - 1),
    });
  }
  const bytes = db.serialize();
  writeFileSync(path, bytes);
  engine.close();
  return { bytes: bytes.length, oldest: 500, newest: 100 };
}
