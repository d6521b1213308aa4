import type { EngineEnv } from '../env';
import type { JobRun } from '../protocol/types';
import type { Handlers } from './index';
import { reindexInSlices } from '../store/fts-reindex-slices';

/** FTS5 tables the engine keeps; the merge job walks them all. */
const FTS_TABLES = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];
const APPLIED_OPS_TTL_MS = 7 * 86_400_000;
/** Runs kept per job: as many as jobs.history can show; older ones go as new ones are recorded. */
export const JOB_RUNS_KEPT = 100;

interface JobRow {
  id: number;
  job: string;
  trigger: JobRun['trigger'];
  status: JobRun['status'];
  started_at: number;
  finished_at: number;
  result: string;
}

const toJobRun = (r: JobRow): JobRun => ({
  id: r.id,
  job: r.job,
  trigger: r.trigger,
  status: r.status,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  result: JSON.parse(r.result) as Record<string, unknown>,
});

export function maintenanceHandlers(
  env: EngineEnv,
): Handlers<'maintenance.optimize' | 'maintenance.ftsMerge' | 'maintenance.integrityCheck' | 'maintenance.reindex' | 'jobs.record' | 'jobs.history'> {
  const { driver, clock } = env;
  const existingFts = () =>
    FTS_TABLES.filter((t) => driver.get('SELECT 1 FROM sqlite_schema WHERE type = ? AND name = ?', ['table', t]));
  return {
    'maintenance.optimize': () => {
      const t0 = performance.now();
      driver.exec('PRAGMA optimize');
      // Idempotency records only need to outlive a leader hand-over or an outbox drain.
      driver.run('DELETE FROM applied_ops WHERE applied_at < ?', [clock.now() - APPLIED_OPS_TTL_MS]);
      return { task: 'optimize', ms: performance.now() - t0, tables: [] };
    },
    'maintenance.ftsMerge': () => {
      const t0 = performance.now();
      const tables = existingFts();
      // 'merge' with a bounded amount of work per call keeps the worker responsive on big indexes.
      for (const t of tables) driver.run(`INSERT INTO ${t}(${t}, rank) VALUES ('merge', 500)`);
      return { task: 'fts-merge', ms: performance.now() - t0, tables };
    },
    'maintenance.integrityCheck': () => {
      const t0 = performance.now();
      const rows = driver.all<{ integrity_check: string }>('PRAGMA integrity_check');
      const problems = rows.map((r) => String(r.integrity_check)).filter((m) => m !== 'ok');
      // FTS5's own check is an INSERT command: a database opened read-only (storage full at start-up) refuses it.
      // PRAGMA integrity_check above still checks the index's shadow tables as b-trees; the full check runs once writable.
      for (const t of env.storage.readOnly ? [] : existingFts()) {
        try {
          driver.run(`INSERT INTO ${t}(${t}, rank) VALUES ('integrity-check', 0)`);
        } catch (err) {
          problems.push(`${t}: ${err instanceof Error ? err.message : 'integrity check failed'}`);
        }
      }
      return { ok: problems.length === 0, problems, ms: performance.now() - t0 };
    },
    // In slices (issue 16): each row's entry is replaced in one transaction, so readers always find every row.
    'maintenance.reindex': () => ({ announceAfter: true, write: () => null, then: () => reindexInSlices(driver) }),
    'jobs.record': (input) => {
      const row = driver.get<JobRow>(
        'INSERT INTO job_runs (job, trigger, status, started_at, finished_at, result) VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
        [input.job, input.trigger, input.status, input.startedAt, input.finishedAt, JSON.stringify(input.result)],
      );
      if (!row) throw new Error('job_runs insert returned nothing');
      // The log must not grow while the app stays open: each job keeps its newest JOB_RUNS_KEPT runs.
      driver.run(
        `DELETE FROM job_runs WHERE job = ? AND id NOT IN (
           SELECT id FROM job_runs WHERE job = ? ORDER BY started_at DESC, id DESC LIMIT ?)`,
        [input.job, input.job, JOB_RUNS_KEPT],
      );
      return toJobRun(row);
    },
    'jobs.history': ({ job, limit }) =>
      (job
        ? driver.all<JobRow>('SELECT * FROM job_runs WHERE job = ? ORDER BY started_at DESC, id DESC LIMIT ?', [job, limit])
        : driver.all<JobRow>('SELECT * FROM job_runs ORDER BY started_at DESC, id DESC LIMIT ?', [limit])
      ).map(toJobRun),
  };
}
