/**
 * Profiling aid for issues 16/19 (not part of `npm run bench:speed`): which b-trees a foreground `episode.record`'s
 * COMMIT appends to the WAL, on the engine over native SQLite (better-sqlite3, a file in WAL mode, autocheckpoint
 * off, the wasm page size). After each record the WAL's new frames are read (their page numbers only) and told by
 * the table or index that owns the page (dbstat); the page count per COMMIT is what the OPFS bench sees as
 * `wal_pages` (each page a FileSystemSyncAccessHandle write of its frame header and its page).
 *
 *   npx tsx bench/speed/record-pages.ts [--records 2000] [--old 5000]
 */
import Database from 'better-sqlite3';
import { closeSync, openSync, readSync, fstatSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { randomId, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import type { Input, Method, Output } from '../../src/lib/engine/protocol/contract';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { generateTurns } from '../lib/corpus';
import { createPrng } from '../lib/prng';
import { WASM_PAGE_SIZE } from './native';

const { values } = parseArgs({ options: { records: { type: 'string', default: '2000' }, file: { type: 'string', default: '/tmp/record-pages.sqlite3' } } });
const path = values.file!;
for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
const db = new Database(path);
db.pragma(`page_size = ${WASM_PAGE_SIZE}`);
db.pragma('journal_mode = WAL');
db.pragma('wal_autocheckpoint = 0');
db.pragma('synchronous = FULL');
const engine = createEngine({ driver: createBetterSqlite3Driver(db), clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'profile' }, startedAt: Date.now() }, loadMigrationsFromDisk());
const caller = createCaller({ call: (req) => engine.handle(req) });
const must = async <M extends Method>(m: M, input: Input<M>): Promise<Output<M>> => {
  const res = await caller.call(m, input);
  if (!res.ok) throw new Error(`${m}: ${res.error.code} ${res.error.message}`);
  return res.data;
};
// The lifecycle bench's foreground records (lifecycle-load.ts).
const r = createPrng(42 + 19);
const texts = [...generateTurns({ seed: 42 + 19, count: 2_000 })].map((t) => t.content);
const projects = [await must('project.create', { name: 'load novel' }), await must('project.create', { name: 'load notes' })];
const docs = [
  await must('document.create', { projectId: projects[0]!.id, title: 'chapter', content: texts.slice(0, 40).join('\n\n') }),
  await must('document.create', { projectId: projects[1]!.id, title: 'notes', content: texts.slice(40, 80).join('\n\n') }),
];
const FRAME_HEADER = 24;
const frameSize = WASM_PAGE_SIZE + FRAME_HEADER;
let walRead = 32;
/** The page numbers of the frames appended since the last call. */
function newFrames(): number[] {
  const fd = openSync(`${path}-wal`, 'r');
  try {
    const size = fstatSync(fd).size;
    const pages: number[] = [];
    const head = Buffer.alloc(FRAME_HEADER);
    for (; walRead + frameSize <= size; walRead += frameSize) {
      readSync(fd, head, 0, FRAME_HEADER, walRead);
      pages.push(head.readUInt32BE(0));
    }
    return pages;
  } finally {
    closeSync(fd);
  }
}
newFrames();
const owner = () => new Map((db.prepare('SELECT pageno, name FROM dbstat').all() as { pageno: number; name: string }[]).map((x) => [x.pageno, x.name]));
const byTree = new Map<string, number>();
const perCommit: number[] = [];
const n = Number(values.records);
let pages: number[][] = [];
for (let i = 0; i < n; i++) {
  const p = i % 2;
  const k = r.int(1, 3);
  await must('episode.record', {
    skillId: r.chance(0.5) ? 'continue' : 'polish', projectId: projects[p]!.id, documentId: docs[p]!.id, input: r.pick(texts),
    candidates: Array.from({ length: k }, () => r.pick(texts)), selectedIndex: r.chance(0.15) ? -1 : r.int(0, k - 1),
    ...(r.chance(0.3) ? { finalText: r.pick(texts) } : {}),
  });
  pages.push(newFrames());
  if (i % 200 === 199 || i === n - 1) {
    // Page owners as they are now (a page freed and reused in between is rare at this size).
    const own = owner();
    for (const f of pages) {
      perCommit.push(f.length);
      for (const pg of f) {
        const name = pg === 1 ? 'page 1 (header)' : (own.get(pg) ?? 'free/overflow?');
        byTree.set(name, (byTree.get(name) ?? 0) + 1);
      }
    }
    pages = [];
  }
}
const sorted = [...perCommit].sort((a, b) => a - b);
console.log(`${n} records: WAL pages per COMMIT p50 ${sorted[Math.floor(n / 2)]}, p90 ${sorted[Math.floor(n * 0.9)]}, max ${sorted.at(-1)}, mean ${(perCommit.reduce((a, b) => a + b, 0) / n).toFixed(2)}`);
for (const [name, c] of [...byTree].sort((a, b) => b[1] - a[1])) console.log(`  ${(c / n).toFixed(2).padStart(6)} per record  ${name}`);
engine.close();
