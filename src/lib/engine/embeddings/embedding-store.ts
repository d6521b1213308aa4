import type { SqlDriver } from '../store/driver';

/** What a vector embeds: a turn (messages.id) or a memory (memories.rid). */
export type EmbeddingKind = 'turn' | 'memory';
export const KIND_CODE: Readonly<Record<EmbeddingKind, number>> = { turn: 0, memory: 1 };

export interface PendingText {
  kind: EmbeddingKind;
  id: number;
  text: string;
}

/** Texts longer than this are embedded by their start (servers cap their input; the start says what a turn is about). */
export const EMBED_CHARS = 2000;

/**
 * The vectors table (migration `…-embeddings.sql`), one statement per call. Turns are filled oldest first, so
 * "what is left" is every turn after the newest embedded one (an O(log n) probe, not a scan of 100,000 turns);
 * memories, fewer and editable, by a NOT EXISTS probe per memory.
 */
export function createEmbeddingStore(driver: SqlDriver) {
  const modelRow = (name: string) => driver.get<{ id: number; dims: number }>('SELECT id, dims FROM embedding_models WHERE name = ?', [name]);
  /** The newest turn id embedded by a model (turns are filled in id order). */
  const turnMark = (modelId: number) =>
    driver.get<{ n: number | null }>('SELECT MAX(ref_id) AS n FROM embeddings WHERE kind = 0 AND model_id = ?', [modelId])?.n ?? 0;

  return {
    model: modelRow,
    /** Up to `limit` texts the model has no vector for yet: memories first (few, and asked for by every reply), then turns in id order. */
    pending(model: string, limit: number): PendingText[] {
      const m = modelRow(model);
      const out: PendingText[] = driver
        .all<{ id: number; text: string }>(
          `SELECT rid AS id, substr(content, 1, ?) AS text FROM memories WHERE status = 'active'
             AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.kind = 1 AND e.ref_id = memories.rid AND e.model_id = ?)
           ORDER BY rid LIMIT ?`,
          [EMBED_CHARS, m?.id ?? -1, limit],
        )
        .map((r) => ({ kind: 'memory' as const, id: r.id, text: r.text }));
      if (out.length < limit) {
        const rows = driver.all<{ id: number; text: string }>('SELECT id, substr(content, 1, ?) AS text FROM messages WHERE id > ? ORDER BY id LIMIT ?', [
          EMBED_CHARS,
          m ? turnMark(m.id) : 0,
          limit - out.length,
        ]);
        for (const r of rows) out.push({ kind: 'turn', id: r.id, text: r.text });
      }
      return out;
    },
    /** Turns and active memories, and how many of them the model has embedded (progress). */
    progress(model: string): { total: number; embedded: number } {
      const m = modelRow(model);
      const turns = driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n ?? 0;
      const memories = driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM memories WHERE status = 'active'")?.n ?? 0;
      if (!m) return { total: turns + memories, embedded: 0 };
      const turnsLeft = driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE id > ?', [turnMark(m.id)])?.n ?? 0;
      const memoriesDone =
        driver.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM memories WHERE status = 'active' AND EXISTS (SELECT 1 FROM embeddings e WHERE e.kind = 1 AND e.ref_id = memories.rid AND e.model_id = ?)",
          [m.id],
        )?.n ?? 0;
      return { total: turns + memories, embedded: Math.max(0, turns - turnsLeft) + memoriesDone };
    },
    /**
     * Stores vectors of one model (in a transaction of the caller's). A model seen for the first time — or whose
     * vectors changed size (another model under the same name) — replaces every other model's vectors: one model's
     * vectors at a time, so a model change re-embeds and storage stays one vector per row. Rows whose turn or memory
     * is gone by now are skipped.
     */
    put(model: string, items: readonly { kind: EmbeddingKind; id: number; vector: Uint8Array }[], now: number): { stored: number; replacedModels: number } {
      const dims = items[0]?.vector.length ?? 0;
      if (dims === 0) return { stored: 0, replacedModels: 0 };
      let m = modelRow(model);
      let replacedModels = 0;
      if (!m || m.dims !== dims) {
        replacedModels = driver.run('DELETE FROM embedding_models WHERE name <> ? OR dims <> ?', [model, dims]).changes;
        if (m && m.dims !== dims) driver.run('DELETE FROM embeddings WHERE model_id = ?', [m.id]);
        m = driver.get<{ id: number; dims: number }>(
          'INSERT INTO embedding_models (name, dims, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET dims = excluded.dims RETURNING id, dims',
          [model, dims, now],
        );
      }
      if (!m) return { stored: 0, replacedModels };
      let stored = 0;
      for (const item of items) {
        if (item.vector.length !== dims) continue;
        const exists =
          item.kind === 'turn'
            ? driver.get('SELECT 1 FROM messages WHERE id = ?', [item.id])
            : driver.get("SELECT 1 FROM memories WHERE rid = ? AND status = 'active'", [item.id]);
        if (!exists) continue;
        stored += driver.run('INSERT OR REPLACE INTO embeddings (model_id, kind, ref_id, vector) VALUES (?, ?, ?, ?)', [m.id, KIND_CODE[item.kind], item.id, item.vector]).changes;
      }
      return { stored, replacedModels };
    },
    /** The one model whose vectors are stored (one at a time, see `put`), or null: what to load when the database opens. */
    storedModel(): string | null {
      return driver.get<{ name: string }>('SELECT name FROM embedding_models ORDER BY id DESC LIMIT 1')?.name ?? null;
    },
    /**
     * Up to `limit` vectors of a model and kind with ids after `afterId`, in id order: one slice of the in-memory
     * index's background load (a range of the primary key, so each slice is a short read however large the table).
     */
    vectorsAfter(model: string, kind: EmbeddingKind, afterId: number, limit: number): { dims: number; rows: { id: number; vector: Uint8Array }[] } | null {
      const m = modelRow(model);
      if (!m) return null;
      const rows = driver.all<{ id: number; vector: Uint8Array }>(
        'SELECT ref_id AS id, vector FROM embeddings WHERE kind = ? AND ref_id > ? AND model_id = ? ORDER BY ref_id LIMIT ?',
        [KIND_CODE[kind], afterId, m.id, limit],
      );
      return { dims: m.dims, rows };
    },
    /** Every vector of a model and kind (loading the in-memory index once). */
    vectors(model: string, kind: EmbeddingKind): { dims: number; rows: { id: number; vector: Uint8Array }[] } | null {
      const m = modelRow(model);
      if (!m) return null;
      const rows = driver.all<{ id: number; vector: Uint8Array }>('SELECT ref_id AS id, vector FROM embeddings WHERE kind = ? AND model_id = ?', [KIND_CODE[kind], m.id]);
      return { dims: m.dims, rows };
    },
  };
}

export type EmbeddingStore = ReturnType<typeof createEmbeddingStore>;
