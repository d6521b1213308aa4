import { describe, expect, it } from 'vitest';
import { readSqliteMemory } from './sqlite-memory';
import { loadSqlite3 } from './open-wasm';

describe('sqlite-wasm memory figures (the speed benchmark reads them from the DB worker)', () => {
  it('are null until sqlite3 has started loading, then grow with what a database holds', async () => {
    expect(await readSqliteMemory()).toBeNull();
    const sqlite3 = await loadSqlite3();
    const before = await readSqliteMemory();
    expect(before).not.toBeNull();
    const db = new sqlite3.oo1.DB(':memory:');
    try {
      db.exec("CREATE TABLE t(x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT printf('%0200d', i) FROM n;");
      const after = await readSqliteMemory();
      if (!before || !after) throw new Error('no figures');
      expect(after.memoryUsed).toBeGreaterThan(before.memoryUsed + 500_000);
      expect(after.memoryHighwater).toBeGreaterThanOrEqual(after.memoryUsed);
      expect(after.wasmMemory).toBeGreaterThanOrEqual(after.memoryHighwater);
    } finally {
      db.close();
    }
  });
});
