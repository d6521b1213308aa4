import { EngineError } from '../../domain/errors';
import type { RuleCategory, SemanticRule } from '../context/types';
import type { BasisEntry } from '../../domain/semantic/distill';
import type { EngineEnv } from '../env';

interface RuleRow {
  rid: number;
  id: string;
  rule: string;
  category: RuleCategory;
  scope: 'global' | 'project';
  project_id: string | null;
  key: string | null;
  confidence: number;
  supporting: string;
  contradicting: string;
  user_confirmed: number;
  user_modified: number;
  source: 'user' | 'learned';
  version: number;
  status: 'active' | 'deleted';
  created_at: number;
  updated_at: number;
  basis: string;
  penalty: number;
  drifted_at: number | null;
  pinned: number;
  conflict_id?: string | null;
}

/** A rule row with its JSON columns parsed and its REAL columns apart (list rows arrive this way, LIST_SELECT). */
type ParsedRow = Omit<RuleRow, 'confidence' | 'penalty' | 'supporting' | 'contradicting' | 'basis'> & { supporting: string[]; contradicting: string[]; basis: BasisEntry[] };

const fromParsed = (r: ParsedRow, confidence: number, penalty: number): SemanticRule & { order: number; pinned: boolean } => ({
  id: r.id,
  rule: r.rule,
  category: r.category,
  scope: r.scope,
  projectId: r.project_id,
  key: r.key,
  confidence,
  supporting: r.supporting,
  contradicting: r.contradicting,
  userConfirmed: r.user_confirmed === 1,
  userModified: r.user_modified === 1,
  source: r.source,
  version: r.version,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  basis: r.basis,
  penalty,
  driftedAt: r.drifted_at,
  conflictId: r.conflict_id ?? null,
  order: r.rid,
  /** "Keep this" from the forgetting ledger (issue 19): exempt from decay. */
  pinned: r.pinned === 1,
});

const toRule = (r: RuleRow) =>
  fromParsed(
    { ...r, supporting: JSON.parse(r.supporting) as string[], contradicting: JSON.parse(r.contradicting) as string[], basis: JSON.parse(r.basis) as BasisEntry[] },
    r.confidence,
    r.penalty,
  );

/** Every read names the rule's open conflict (003 直接矛盾), if it is in one. */
const SELECT = `SELECT r.*, (SELECT c.id FROM rule_conflicts c WHERE c.resolved_at IS NULL AND (c.rule_a = r.id OR c.rule_b = r.id) LIMIT 1) AS conflict_id
  FROM semantic_rules r`;

/**
 * Lists read each rule as three cells, not twenty-one: sqlite-wasm reads every cell (and its column name) through
 * a call into wasm, and at 60 rules that was most of rules.list (issue 17's benchmark: rules.list within 2× of
 * memory.list). The text and integer columns travel as one JSON object — the three JSON columns embedded as JSON
 * (json(...)), so each rule costs one JSON.parse, not four — and the two REAL columns stay cells of their own so
 * their values are exact (JSON text would round them).
 */
const LIST_SELECT = `SELECT json_object('rid', r.rid, 'id', r.id, 'rule', r.rule, 'category', r.category, 'scope', r.scope,
    'project_id', r.project_id, 'key', r.key, 'supporting', json(r.supporting), 'contradicting', json(r.contradicting),
    'user_confirmed', r.user_confirmed, 'user_modified', r.user_modified, 'source', r.source, 'version', r.version,
    'status', r.status, 'created_at', r.created_at, 'updated_at', r.updated_at, 'basis', json(r.basis), 'drifted_at', r.drifted_at, 'pinned', r.pinned,
    'conflict_id', (SELECT c.id FROM rule_conflicts c WHERE c.resolved_at IS NULL AND (c.rule_a = r.id OR c.rule_b = r.id) LIMIT 1)) AS j,
  r.confidence AS confidence, r.penalty AS penalty
  FROM semantic_rules r`;
const fromListRow = (x: { j: string; confidence: number; penalty: number }) => fromParsed(JSON.parse(x.j) as ParsedRow, x.confidence, x.penalty);

/** 003: at most this many active rules; beyond it the least confident learned (unconfirmed) rule goes. */
export const MAX_ACTIVE_RULES = 200;

export interface NewRule {
  rule: string;
  category: RuleCategory;
  scope: 'global' | 'project';
  projectId: string | null;
  key: string | null;
  confidence: number;
  source: 'user' | 'learned';
  userConfirmed: boolean;
  supporting?: string[];
  contradicting?: string[];
  basis?: BasisEntry[];
}

/** 003 semantic rules. `order` (the row id) is the creation order L2 sorts by (append-only prefix). */
export function createRuleRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const find = (id: string) => {
    const row = driver.get<RuleRow>(`${SELECT} WHERE r.id = ?`, [id]);
    return row ? toRule(row) : undefined;
  };
  const listRules = (where: string, params: (string | null)[]) =>
    driver.all<{ j: string; confidence: number; penalty: number }>(`${LIST_SELECT} WHERE ${where} ORDER BY r.rid`, params).map(fromListRow);
  const mustFind = (id: string) => {
    const r = find(id);
    if (!r || r.status === 'deleted') throw new EngineError('NOT_FOUND', 'No rule with that `id` (it may have been deleted).', { field: 'id' });
    return r;
  };
  /** The row holding a key in a scope: the active one if any, else the most recent deleted one. */
  const byKey = (scope: 'global' | 'project', projectId: string | null, key: string) => {
    const row = driver.get<RuleRow>(
      `${SELECT} WHERE r.scope = ? AND COALESCE(r.project_id, '') = ? AND r.key = ?
       ORDER BY r.status = 'active' DESC, r.rid DESC LIMIT 1`,
      [scope, projectId ?? '', key],
    );
    return row ? toRule(row) : undefined;
  };
  const keyTaken = (scope: 'global' | 'project', projectId: string | null, key: string | null, exceptId?: string) => {
    if (key === null) return false;
    const other = byKey(scope, projectId, key);
    return other !== undefined && other.status === 'active' && other.id !== exceptId;
  };
  return {
    find,
    mustFind,
    byKey,
    keyTaken,
    insert(input: NewRule) {
      const now = clock.now();
      const id = ids();
      driver.run(
        `INSERT INTO semantic_rules (id, rule, category, scope, project_id, key, confidence, supporting, contradicting, user_confirmed, source, basis, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          input.rule,
          input.category,
          input.scope,
          input.projectId,
          input.key,
          input.confidence,
          JSON.stringify(input.supporting ?? []),
          JSON.stringify(input.contradicting ?? []),
          input.userConfirmed,
          input.source,
          JSON.stringify(input.basis ?? []),
          now,
          now,
        ],
      );
      return mustFind(id);
    },
    /** Rules injected for a run: active global rules plus the project's, in creation order. */
    activeFor(projectId: string | null) {
      return listRules("r.status = 'active' AND (r.scope = 'global' OR (r.scope = 'project' AND r.project_id = ?))", [projectId]);
    },
    list(opts: { scope?: 'global' | 'project'; projectId?: string; includeDeleted: boolean }) {
      const where = [opts.includeDeleted ? '1' : "r.status = 'active'"];
      const params: string[] = [];
      if (opts.scope) (where.push('r.scope = ?'), params.push(opts.scope));
      if (opts.projectId) (where.push("(r.project_id = ? OR r.scope = 'global')"), params.push(opts.projectId));
      return listRules(where.join(' AND '), params);
    },
    /** Every rule, deleted ones too (distillation's snapshot: deleted keys are never learned again). */
    all() {
      return listRules('1', []);
    },
    /** Applies a patch; `version` goes up by one whenever anything changes. */
    patch(
      id: string,
      p: Partial<{
        rule: string;
        category: RuleCategory;
        confidence: number;
        supporting: string[];
        contradicting: string[];
        userConfirmed: boolean;
        userModified: boolean;
        scope: 'global' | 'project';
        projectId: string | null;
        status: 'active' | 'deleted';
        basis: BasisEntry[];
        penalty: number;
        driftedAt: number | null;
      }>,
    ) {
      const before = mustFind(id);
      const next = { ...before, ...p };
      driver.run(
        `UPDATE semantic_rules SET rule = ?, category = ?, confidence = ?, supporting = ?, contradicting = ?, user_confirmed = ?,
           user_modified = ?, scope = ?, project_id = ?, status = ?, basis = ?, penalty = ?, drifted_at = ?, version = version + 1, updated_at = ? WHERE id = ?`,
        [
          next.rule,
          next.category,
          next.confidence,
          JSON.stringify(next.supporting),
          JSON.stringify(next.contradicting),
          next.userConfirmed,
          next.userModified,
          next.scope,
          next.projectId,
          next.status,
          JSON.stringify(next.basis),
          next.penalty,
          next.driftedAt,
          clock.now(),
          id,
        ],
      );
      return find(id) as SemanticRule & { order: number };
    },
    /** 003 storage budget: evicts the least confident learned, unconfirmed rules beyond the cap. */
    evictOverCap(): string[] {
      const over = (driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM semantic_rules WHERE status = 'active'")?.n ?? 0) - MAX_ACTIVE_RULES;
      if (over <= 0) return [];
      const victims = driver.all<{ id: string }>(
        `SELECT id FROM semantic_rules WHERE status = 'active' AND user_confirmed = 0 AND source = 'learned'
         ORDER BY confidence, rid LIMIT ?`,
        [over],
      );
      // Evicted, not deleted by the user: the row goes, so learning may find the pattern again.
      for (const v of victims) driver.run('DELETE FROM semantic_rules WHERE id = ?', [v.id]);
      return victims.map((v) => v.id);
    },
  };
}

export type RuleRepo = ReturnType<typeof createRuleRepo>;
