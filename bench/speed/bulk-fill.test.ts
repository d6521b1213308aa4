import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNative } from './native';

const dir = mkdtempSync(join(tmpdir(), 'engram-bulk-fill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Fills a database the way run.ts does for sizes 1,000 then 3,000: a fill, timed appends through the engine, a fill on. */
async function fill(kind: 'bulk' | 'engine'): Promise<{ path: string; sessions: number }> {
  const path = join(dir, `${kind}.sqlite3`);
  const native = openNative({ path, seed: 42, total: 3000, fill: kind });
  await native.fillTo(950);
  await native.storeTimed(1000);
  await native.fillTo(3000);
  const sessions = native.sessions();
  native.close();
  return { path, sessions };
}

/** Everything recall reads, without the random session ids and the clock: conversations by their insertion order. */
function content(path: string) {
  const db = new Database(path, { readonly: true });
  const all = (sql: string) => db.prepare(sql).all();
  const ord = 'SELECT rowid FROM sessions s WHERE s.id = ';
  const vocab = (table: string) => {
    db.exec(`CREATE VIRTUAL TABLE temp.v_${table} USING fts5vocab(main, ${table}, instance)`);
    return all(`SELECT term, doc, col, offset FROM temp.v_${table} ORDER BY term, doc, col, offset`);
  };
  const tables = (all("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%fts_%' ORDER BY name") as { name: string }[]).map(
    ({ name }) => [name, (db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n],
  );
  const out = {
    sessions: all('SELECT rowid, project_id, title, snippet, summarized_at IS NOT NULL AS summarized, is_collected, turn_count, created_at <= last_active AS ordered FROM sessions ORDER BY rowid'),
    messages: all(`SELECT id, (${ord} m.session_id) AS session, turn_no, role, content, symbols, is_collected, status, meta FROM messages m ORDER BY id`),
    symbols: all('SELECT turn_id, symbol, relevance FROM symbol_index ORDER BY turn_id, symbol'),
    summaries: all(`SELECT id, (${ord} x.session_id) AS session, kind, start_turn, end_turn, summary, key_symbols, key_decisions, method FROM summaries x ORDER BY id`),
    messagesFts: vocab('messages_fts'),
    summariesFts: vocab('summaries_fts'),
    tables,
  };
  db.close();
  return out;
}

describe('the bulk prefill (bench/speed/bulk-fill.ts)', () => {
  it('writes at 3,000 turns the same conversations, turns, symbols, summaries and full-text index as the engine path', async () => {
    const bulk = await fill('bulk');
    const engine = await fill('engine');
    expect(bulk.sessions).toBe(engine.sessions);
    const a = content(bulk.path);
    const b = content(engine.path);
    // Not vacuous: the corpus gave many conversations, summaries and index entries.
    expect(a.messages).toHaveLength(3000);
    expect(a.sessions.length).toBeGreaterThan(30);
    expect(a.summaries.length).toBeGreaterThan(10);
    expect(a.symbols.length).toBeGreaterThan(100);
    expect(a.messagesFts.length).toBeGreaterThan(50_000);
    expect(a.sessions).toEqual(b.sessions);
    expect(a.messages).toEqual(b.messages);
    expect(a.symbols).toEqual(b.symbols);
    expect(a.summaries).toEqual(b.summaries);
    expect(a.messagesFts).toEqual(b.messagesFts);
    expect(a.summariesFts).toEqual(b.summariesFts);
    expect(a.tables).toEqual(b.tables);
  }, 120_000);
});
