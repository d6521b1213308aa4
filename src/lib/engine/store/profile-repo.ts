import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import type { HistoryActor } from './memory-rows';

/** Seed 000 "用户画像": the document as the UI shows it. Version 0 = nothing written yet (empty). */
export interface ProfileState {
  content: string;
  version: number;
  updatedAt: number | null;
  actor: HistoryActor | null;
}

export interface ProfileVersion extends ProfileState {
  version: number;
  /** A fixed code (`edit`, `extract`, `undo`), never user text. */
  reason: string | null;
  /** For an undo: the version whose text it brought back (0 = the empty profile). */
  restores: number | null;
}

interface ProfileRow {
  version: number;
  content: string;
  actor: HistoryActor;
  reason: string | null;
  restores: number | null;
  created_at: number;
}

const EMPTY: ProfileState = { content: '', version: 0, updatedAt: null, actor: null };

const toVersion = (r: ProfileRow): ProfileVersion => ({
  content: r.content,
  version: r.version,
  updatedAt: r.created_at,
  actor: r.actor,
  reason: r.reason,
  restores: r.restores,
});

/**
 * The profile's versions, append-only: an edit, an extraction and an undo each add a version, so every
 * state the user saw can be shown and brought back. Undo walks back through the edits, skipping what
 * earlier undos already took back:
 *
 *   v1 A · v2 B · v3 C  ─undo→ v4 = B (restores 2) ─undo→ v5 = A (restores 1) ─undo→ v6 = '' (restores 0)
 */
export function createProfileRepo({ driver, clock }: Pick<EngineEnv, 'driver' | 'clock'>) {
  const latest = (): ProfileVersion | undefined => {
    const row = driver.get<ProfileRow>('SELECT * FROM user_profile ORDER BY version DESC LIMIT 1');
    return row ? toVersion(row) : undefined;
  };
  const at = (version: number): ProfileVersion | undefined => {
    const row = driver.get<ProfileRow>('SELECT * FROM user_profile WHERE version = ?', [version]);
    return row ? toVersion(row) : undefined;
  };
  const current = (): ProfileState => {
    const v = latest();
    return v ? { content: v.content, version: v.version, updatedAt: v.updatedAt, actor: v.actor } : EMPTY;
  };

  function write(content: string, meta: { actor: HistoryActor; reason: string; restores?: number }): ProfileState {
    const version = (latest()?.version ?? 0) + 1;
    driver.run('INSERT INTO user_profile (version, content, actor, reason, restores, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      version,
      content,
      meta.actor,
      meta.reason,
      meta.restores ?? null,
      clock.now(),
    ]);
    return current();
  }

  /** The version whose state `v` shows: an undo shows the state of the version it restored. */
  const effective = (v: ProfileVersion | undefined): number => (v === undefined ? 0 : (v.restores ?? v.version));

  return {
    get: current,
    /**
     * Writes a new version. `expectedVersion` guards an editor against overwriting a change it has not
     * seen (an extraction that landed meanwhile): stale → CONFLICT. Writing the same text is a no-op.
     */
    write(content: string, meta: { actor: HistoryActor; reason: string; expectedVersion?: number }): ProfileState {
      const now = current();
      if (meta.expectedVersion !== undefined && meta.expectedVersion !== now.version) {
        throw new EngineError(
          'CONFLICT',
          'The profile changed since it was opened (`expectedVersion` is stale). Reload it and apply your edit again.',
          { field: 'expectedVersion', currentVersion: now.version },
        );
      }
      if (content === now.content) return now;
      return write(content, meta);
    },
    history(opts: { limit: number; offset: number }): { items: ProfileVersion[]; total: number } {
      const total = driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM user_profile')?.n ?? 0;
      const rows = driver.all<ProfileRow>('SELECT * FROM user_profile ORDER BY version DESC LIMIT ? OFFSET ?', [opts.limit, opts.offset]);
      return { items: rows.map(toVersion), total };
    },
    /** Removes every version (a full clear that includes the profile). */
    clear(): number {
      return driver.run('DELETE FROM user_profile').changes;
    },
    /** Takes back the last change still in effect; `undone` is null when there is nothing left to undo. */
    undo(actor: HistoryActor = 'user'): { undone: number | null; profile: ProfileState } {
      const shown = effective(latest());
      if (shown === 0) return { undone: null, profile: current() };
      const target = effective(at(shown - 1));
      const content = target === 0 ? '' : (at(target)?.content ?? '');
      write(content, { actor, reason: 'undo', restores: target });
      return { undone: shown, profile: current() };
    },
  };
}

export type ProfileRepo = ReturnType<typeof createProfileRepo>;
