import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { decodeFtsStructure } from './fts-structure';

/** The decoder against FTS5's own record: segments and pages as `%_idx` counts them, a merge in progress. */
describe('decodeFtsStructure', () => {
  const structure = (db: Database.Database) => decodeFtsStructure((db.prepare('SELECT block FROM t_data WHERE id = 10').get() as { block: Uint8Array }).block);
  // Leaf pages per segment as %_idx sees them (a row per leaf page that starts a term; every leaf here starts one).
  const idx = (db: Database.Database) => new Map((db.prepare('SELECT segid, count(*) AS n FROM t_idx GROUP BY segid').all() as { segid: number; n: number }[]).map((r) => [r.segid, r.n]));

  it('reads levels, segments and their pages, and a merge in progress', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x); INSERT INTO t (t, rank) VALUES ('automerge', 0); INSERT INTO t (t, rank) VALUES ('pgsz', 64)");
    const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
    for (let i = 0; i < 12; i++) insert.run(Array.from({ length: 20 + i * 10 }, (_, k) => `w${k}x${i}`).join(' '));
    let s = structure(db);
    expect(s.levels[0]?.segments).toHaveLength(12);
    const pages = idx(db);
    for (const seg of s.levels.flatMap((l) => l.segments)) expect(seg.pages).toBe(pages.get(seg.id));
    expect(s.levels.every((l) => l.merging === 0)).toBe(true);
    // One page of merging out of many: the level's 12 segments are being merged, the output is at level 1.
    db.exec("INSERT INTO t (t, rank) VALUES ('merge', 1)");
    s = structure(db);
    expect(s.levels[0]?.merging).toBe(12);
    expect(s.levels[1]?.segments).toHaveLength(1);
    db.exec("INSERT INTO t (t, rank) VALUES ('merge', 1000)");
    s = structure(db);
    expect(s.levels[0]?.segments ?? []).toHaveLength(0);
    expect(s.levels.flatMap((l) => l.segments)).toHaveLength(1);
  });
});
