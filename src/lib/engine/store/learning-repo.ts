/**
 * The bookkeeping of learning (issue 17): the rules' history (003 "查看学习历史"), direct contradictions
 * waiting for the user (003 "直接矛盾"), distillation runs (one at a time, a lease) and what each skill
 * run's context took from the writing memory (the inspector's card).
 */
import type { EngineEnv } from '../env';
import type { SqlParam } from './driver';
import type { RuleChange, RuleConflict, DistillRun, DistillTrigger } from '../semantic/types';
import type { RunLearning } from '../episodes/types';
import type { StyleFeatures } from '../../domain/episodes/features';
import type { SceneType } from '../../domain/episodes/scene-type';

export interface RunLearningRow {
  runId: string;
  documentId: string | null;
  projectId: string | null;
  skillId: string;
  sceneType: SceneType;
  inputSummary: string;
  inputFeatures: StyleFeatures | null;
  /** The instruction the user typed for this run (null: the skill's default instruction). */
  intent: string | null;
  workingMemory: unknown;
  episodes: RunLearning['episodes'];
}

interface LearningRow {
  run_id: string;
  document_id: string | null;
  project_id: string | null;
  skill_id: string;
  scene_type: SceneType;
  input_summary: string;
  input_features: string | null;
  intent: string | null;
  working_memory: string | null;
  episodes: string;
  archived: number;
  created_at: number;
}

const toLearning = (r: LearningRow): RunLearningRow & { archived: boolean; createdAt: number } => ({
  runId: r.run_id,
  documentId: r.document_id,
  projectId: r.project_id,
  skillId: r.skill_id,
  sceneType: r.scene_type,
  inputSummary: r.input_summary,
  inputFeatures: r.input_features === null ? null : (JSON.parse(r.input_features) as StyleFeatures),
  intent: r.intent,
  workingMemory: r.working_memory === null ? null : JSON.parse(r.working_memory),
  episodes: JSON.parse(r.episodes) as RunLearning['episodes'],
  archived: r.archived === 1,
  createdAt: r.created_at,
});

interface HistoryRow {
  id: number;
  rule_id: string;
  project_id: string | null;
  action: RuleChange['action'];
  actor: RuleChange['actor'];
  before: string | null;
  after: string | null;
  episodes: string;
  distill_id: string | null;
  created_at: number;
}

interface ConflictRow {
  id: string;
  project_id: string | null;
  rule_a: string;
  rule_b: string;
  dimension: string;
  confidence_a: number;
  confidence_b: number;
  detected_at: number;
  resolved_at: number | null;
  kept_rule_id: string | null;
}

interface DistillRow {
  id: string;
  trigger: DistillTrigger;
  status: DistillRun['status'];
  watermark: number;
  episodes: number;
  result: string;
  error_code: string | null;
  started_at: number;
  finished_at: number | null;
}

const toChange = (r: HistoryRow): RuleChange => ({
  id: r.id,
  ruleId: r.rule_id,
  projectId: r.project_id,
  action: r.action,
  actor: r.actor,
  before: r.before === null ? null : (JSON.parse(r.before) as RuleChange['before']),
  after: r.after === null ? null : (JSON.parse(r.after) as RuleChange['after']),
  episodes: JSON.parse(r.episodes) as string[],
  distillId: r.distill_id,
  at: r.created_at,
});

const toConflict = (r: ConflictRow): RuleConflict => ({
  id: r.id,
  projectId: r.project_id,
  ruleA: r.rule_a,
  ruleB: r.rule_b,
  dimension: r.dimension,
  confidenceA: r.confidence_a,
  confidenceB: r.confidence_b,
  detectedAt: r.detected_at,
  resolvedAt: r.resolved_at,
  keptRuleId: r.kept_rule_id,
});

const toDistill = (r: DistillRow): DistillRun => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  watermark: r.watermark,
  episodes: r.episodes,
  result: JSON.parse(r.result) as Record<string, number>,
  errorCode: r.error_code,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** A history entry never carries more of the episodes than this (the newest ones). */
const HISTORY_EPISODES = 50;

export function createLearningRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  return {
    history: {
      add(e: Omit<RuleChange, 'id' | 'at'>): void {
        driver.run(
          'INSERT INTO rule_history (rule_id, project_id, action, actor, before, after, episodes, distill_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [
            e.ruleId,
            e.projectId,
            e.action,
            e.actor,
            e.before === null ? null : JSON.stringify(e.before),
            e.after === null ? null : JSON.stringify(e.after),
            JSON.stringify(e.episodes.slice(-HISTORY_EPISODES)),
            e.distillId,
            clock.now(),
          ],
        );
      },
      list(opts: { ruleId?: string; projectId?: string | null; limit: number; offset: number }): { items: RuleChange[]; total: number } {
        const where: string[] = [];
        const params: SqlParam[] = [];
        if (opts.ruleId) (where.push('rule_id = ?'), params.push(opts.ruleId));
        if (opts.projectId === null) where.push('project_id IS NULL');
        else if (opts.projectId !== undefined) (where.push('(project_id = ? OR project_id IS NULL)'), params.push(opts.projectId));
        const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
        const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM rule_history ${clause}`, params)?.n ?? 0;
        const items = driver.all<HistoryRow>(`SELECT * FROM rule_history ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, [...params, opts.limit, opts.offset]).map(toChange);
        return { items, total };
      },
      deleteProject: (projectId: string) => driver.run('DELETE FROM rule_history WHERE project_id = ?', [projectId]).changes,
    },
    conflicts: {
      open(projectId?: string | null): RuleConflict[] {
        if (projectId === undefined) return driver.all<ConflictRow>('SELECT * FROM rule_conflicts WHERE resolved_at IS NULL ORDER BY detected_at, id').map(toConflict);
        return driver
          .all<ConflictRow>('SELECT * FROM rule_conflicts WHERE resolved_at IS NULL AND (project_id IS NULL OR project_id = ?) ORDER BY detected_at, id', [projectId])
          .map(toConflict);
      },
      find(id: string): RuleConflict | undefined {
        const r = driver.get<ConflictRow>('SELECT * FROM rule_conflicts WHERE id = ?', [id]);
        return r ? toConflict(r) : undefined;
      },
      /** Whether these two rules were ever in a conflict (an open one is not raised twice; a resolved one is settled). */
      between(a: string, b: string): RuleConflict | undefined {
        const r = driver.get<ConflictRow>('SELECT * FROM rule_conflicts WHERE (rule_a = ? AND rule_b = ?) OR (rule_a = ? AND rule_b = ?) ORDER BY detected_at DESC LIMIT 1', [a, b, b, a]);
        return r ? toConflict(r) : undefined;
      },
      insert(c: Omit<RuleConflict, 'id' | 'detectedAt' | 'resolvedAt' | 'keptRuleId'>): RuleConflict {
        const id = ids();
        driver.run(
          'INSERT INTO rule_conflicts (id, project_id, rule_a, rule_b, dimension, confidence_a, confidence_b, detected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [id, c.projectId, c.ruleA, c.ruleB, c.dimension, c.confidenceA, c.confidenceB, clock.now()],
        );
        return this.find(id) as RuleConflict;
      },
      resolve(id: string, keptRuleId: string | null): void {
        driver.run('UPDATE rule_conflicts SET resolved_at = ?, kept_rule_id = ? WHERE id = ?', [clock.now(), keptRuleId, id]);
      },
      /** Conflicts of a rule that is gone (deleted, evicted) are settled with nothing kept. */
      closeForRule(ruleId: string): void {
        driver.run('UPDATE rule_conflicts SET resolved_at = ? WHERE resolved_at IS NULL AND (rule_a = ? OR rule_b = ?)', [clock.now(), ruleId, ruleId]);
      },
      deleteProject: (projectId: string) => driver.run('DELETE FROM rule_conflicts WHERE project_id = ?', [projectId]).changes,
    },
    distill: {
      running(): DistillRun | undefined {
        const r = driver.get<DistillRow>("SELECT * FROM distill_runs WHERE status = 'running' ORDER BY rid DESC LIMIT 1");
        return r ? toDistill(r) : undefined;
      },
      find(id: string): DistillRun | undefined {
        const r = driver.get<DistillRow>('SELECT * FROM distill_runs WHERE id = ?', [id]);
        return r ? toDistill(r) : undefined;
      },
      last(status?: DistillRun['status']): DistillRun | undefined {
        const r = status
          ? driver.get<DistillRow>('SELECT * FROM distill_runs WHERE status = ? ORDER BY rid DESC LIMIT 1', [status])
          : driver.get<DistillRow>('SELECT * FROM distill_runs ORDER BY rid DESC LIMIT 1');
        return r ? toDistill(r) : undefined;
      },
      begin(trigger: DistillTrigger, watermark: number, episodes: number): DistillRun {
        const id = ids();
        driver.run("INSERT INTO distill_runs (id, trigger, status, watermark, episodes, started_at) VALUES (?, ?, 'running', ?, ?, ?)", [id, trigger, watermark, episodes, clock.now()]);
        return this.find(id) as DistillRun;
      },
      finish(id: string, status: 'done' | 'failed', opts: { result?: Record<string, number>; errorCode?: string }): void {
        driver.run('UPDATE distill_runs SET status = ?, result = ?, error_code = ?, finished_at = ? WHERE id = ?', [
          status,
          JSON.stringify(opts.result ?? {}),
          opts.errorCode ?? null,
          clock.now(),
          id,
        ]);
      },
      /** Keeps the newest runs only (the panel shows the last; the rest is history nobody reads). */
      prune(keep: number): void {
        driver.run('DELETE FROM distill_runs WHERE rid <= (SELECT MAX(rid) FROM distill_runs) - ?', [keep]);
      },
    },
    runs: {
      put(r: RunLearningRow): void {
        driver.run(
          `INSERT OR REPLACE INTO run_learning (run_id, document_id, project_id, skill_id, scene_type, input_summary, input_features, intent,
             working_memory, episodes, archived, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
          [
            r.runId,
            r.documentId,
            r.projectId,
            r.skillId,
            r.sceneType,
            r.inputSummary,
            r.inputFeatures === null ? null : JSON.stringify(r.inputFeatures),
            r.intent,
            r.workingMemory === null ? null : JSON.stringify(r.workingMemory),
            JSON.stringify(r.episodes),
            clock.now(),
          ],
        );
      },
      find(runId: string): (RunLearningRow & { archived: boolean; createdAt: number }) | undefined {
        const r = driver.get<LearningRow>('SELECT * FROM run_learning WHERE run_id = ?', [runId]);
        return r ? toLearning(r) : undefined;
      },
      /** A document's runs whose session has not been archived, oldest first. */
      open(documentId: string): (RunLearningRow & { archived: boolean; createdAt: number })[] {
        return driver.all<LearningRow>('SELECT * FROM run_learning WHERE archived = 0 AND document_id = ? ORDER BY created_at, run_id', [documentId]).map(toLearning);
      },
      /** Documents with unarchived runs whose last run is older than `before` (sessions nobody ended). */
      staleDocuments(before: number): string[] {
        return driver
          .all<{ document_id: string }>(
            'SELECT document_id FROM run_learning WHERE archived = 0 AND document_id IS NOT NULL GROUP BY document_id HAVING MAX(created_at) < ?',
            [before],
          )
          .map((r) => r.document_id);
      },
      markArchived(runIds: readonly string[]): void {
        for (const id of runIds) driver.run('UPDATE run_learning SET archived = 1 WHERE run_id = ?', [id]);
      },
    },
  };
}

export type LearningRepo = ReturnType<typeof createLearningRepo>;
