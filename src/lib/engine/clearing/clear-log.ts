import type { EngineEnv } from '../env';
import type { SqlDriver } from '../store/driver';

/** One clear as Settings lists it (seed 003 "全量清除需记录操作人和时间戳"). */
export interface ClearLogEntry {
  id: number;
  at: number;
  kind: 'project' | 'all';
  projectId: string | null;
  projectName: string | null;
  /** How many rows of each kind went (episodes, rules, memories, runs, …). */
  counts: Record<string, number>;
  /** The local profile that asked for it (this device's one person: there are no accounts). */
  profileId: string;
}

const PROFILE_KEY = 'local_profile_id';

interface Row {
  id: number;
  at: number;
  kind: 'project' | 'all';
  project_id: string | null;
  project_name: string | null;
  counts: string;
  profile_id: string;
}

/**
 * The audit log of clears. The local profile id is made once per database (a random id kept in `meta`)
 * and names who cleared: Engram has no accounts, so "the operator" is this device's local profile.
 */
export function createClearLog(env: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const driver: SqlDriver = env.driver;

  function profileId(): string {
    const found = driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [PROFILE_KEY])?.value;
    if (found) return found;
    const id = `local-${env.ids()}`;
    driver.run('INSERT INTO meta (key, value) VALUES (?, ?)', [PROFILE_KEY, id]);
    return id;
  }

  return {
    profileId,
    /** In the clear's own transaction: the clear and its record are one write. */
    record(entry: { kind: 'project' | 'all'; projectId?: string; projectName?: string; counts: Record<string, number> }): ClearLogEntry {
      const row = driver.get<Row>(
        'INSERT INTO memory_clear_log (at, kind, project_id, project_name, counts, profile_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
        [env.clock.now(), entry.kind, entry.projectId ?? null, entry.projectName ?? null, JSON.stringify(entry.counts), profileId()],
      ) as Row;
      return toEntry(row);
    },
    list(opts: { limit: number }): ClearLogEntry[] {
      return driver.all<Row>('SELECT * FROM memory_clear_log ORDER BY at DESC, id DESC LIMIT ?', [opts.limit]).map(toEntry);
    },
  };
}

function toEntry(r: Row): ClearLogEntry {
  return {
    id: r.id,
    at: r.at,
    kind: r.kind,
    projectId: r.project_id,
    projectName: r.project_name,
    counts: JSON.parse(r.counts) as Record<string, number>,
    profileId: r.profile_id,
  };
}

export type ClearLog = ReturnType<typeof createClearLog>;
