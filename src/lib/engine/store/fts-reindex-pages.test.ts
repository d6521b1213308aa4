import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { randomId, systemClock } from '../../domain/clock';
import { silentLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { expectOk } from '../testing';
import { createBetterSqlite3Driver } from './better-sqlite3-driver';
import { reindexInSlices } from './fts-reindex-slices';
import { migrations } from './migrations';
import { PERSISTENT_JOURNAL_PRAGMAS } from './open-wasm';

/**
 * Issue 16 item 5: no transaction of the reindex writes more than its page budget allows — its first slice and the
 * first slice of each table included (they ran to the time budget with no page bound: the pages a step writes are
 * known only after a COMMIT). SQLite writes a real WAL here (better-sqlite3 on a temporary file, the browser's
 * journal pragmas and 8 KiB pages, no automatic checkpoint: the WAL only grows), so each slice's pages are the
 * frames its COMMIT appended. Long turns, then short memories.
 */
const PAGE = 8192;
const FRAME = PAGE + 24;
const BUDGET = 16;
let dir = '';

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('the reindex writes at most its page budget a transaction (issue 16)', () => {
  it('every slice, the first of the pass and of each table included, appends at most the budget plus one step to the WAL', async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-reindex-pages-'));
    const db = new Database(join(dir, 'db.sqlite3'));
    db.pragma(`page_size = ${PAGE}`);
    db.exec(PERSISTENT_JOURNAL_PRAGMAS);
    db.exec('PRAGMA foreign_keys = ON; PRAGMA synchronous = OFF; PRAGMA wal_autocheckpoint = 0;');
    const driver = createBetterSqlite3Driver(db);
    const engine = createEngine(
      { driver, clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'test' }, startedAt: Date.now() },
      migrations,
    );
    const session = expectOk(await engine.call('session.create', { title: 'long turns' })) as { id: string };
    // Long varied turns: each rewritten turn's terms fill FTS pages of their own.
    for (let i = 0; i < 150; i++) {
      const words = Array.from({ length: 150 }, (_, k) => `w${(i * 61 + k * 17) % 5003}x${k}`).join(' ');
      expectOk(await engine.call('message.append', { sessionId: session.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: ${words}` }));
    }
    for (let i = 0; i < 40; i++) expectOk(await engine.call('memory.create', { content: `I like tea number ${i}` }));
    const frames = () => Math.max(0, Math.floor((statSync(join(dir, 'db.sqlite3-wal')).size - 32) / FRAME));
    // The clock moves 1 ms a read: the time budget (60 ms) alone would let a slice run ~30 steps.
    let clock = 0;
    const perSlice: { steps: number; frames: number }[] = [];
    let before = frames();
    const report = await reindexInSlices(driver, {
      budgetMs: 60,
      now: () => ++clock,
      pageBudget: BUDGET,
      pagesWritten: frames,
      checkpointEveryPages: Number.MAX_SAFE_INTEGER,
      onSlice: (_ms, t) => {
        const now = frames();
        perSlice.push({ steps: t.steps, frames: now - before });
        before = now;
      },
    });
    expect(report.messages).toBe(150);
    expect(report.memories).toBe(40);
    // What one step can write: the heaviest slice of a single step (a turn's rewrite, a bounded merge).
    const oneStep = Math.max(0, ...perSlice.filter((s) => s.steps === 1).map((s) => s.frames));
    // Before: the first slice ran 60 steps (32 frames) and the final merges 24 steps in one slice (72 frames).
    for (const s of perSlice) expect(s.frames).toBeLessThanOrEqual(BUDGET + oneStep);
    expect(perSlice[0]).toMatchObject({ steps: 1 });
    expect(perSlice[0]!.frames).toBeLessThanOrEqual(BUDGET);
    expect(perSlice.length).toBeLessThan(report.messages + report.memories);
    db.close();
  });
});
