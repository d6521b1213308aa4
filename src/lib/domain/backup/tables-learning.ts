import { col, defaulted, nullable } from './columns';
import { TEXT } from './limits';
import { defineTable } from './table-spec';

/** Migration 0010: episodes, the rules' learning history and conflicts, the runs' learning rows (issue 17, 003). */

const SCENES = ['dialogue', 'action', 'description', 'introspection', 'exposition', 'narration'] as const;
const SIGNALS = ['strong-positive', 'weak-positive', 'mixed', 'weak-negative', 'strong-negative', 'delayed-negative', 'scene-skill-preference', 'verdict-negative'] as const;

export const episodes = defineTable({
  name: 'episodes',
  columns: {
    id: col.id(),
    kind: col.enum(['skill-run', 'session', 'verdict']),
    run_id: nullable(col.id()),
    skill_id: col.text(TEXT.short),
    project_id: nullable(col.id()),
    document_id: nullable(col.id()),
    scene_type: col.enum(SCENES),
    scene_source: col.enum(['heuristic', 'model']),
    input_summary: col.text(TEXT.rule),
    candidates: col.strings(5, TEXT.message),
    selected_index: col.int(-1),
    final_text: nullable(col.text(TEXT.message)),
    explicit: nullable(col.text(TEXT.rule)),
    implicit: col.enum(SIGNALS),
    first_signal: nullable(col.enum(SIGNALS)),
    valence: col.real(-1, 1),
    edit_distance: nullable(col.real(0, 1)),
    features: col.object(64_000),
    negated: col.list(16_000),
    uses: col.int(1),
    importance: col.real(0, 1),
    recall_count: col.int(),
    last_recalled_at: nullable(col.time()),
    compressed: col.bool(),
    summary: nullable(col.text(TEXT.summary)),
    undone_at: nullable(col.time()),
    created_at: col.time(),
    updated_at: col.time(),
    // Issue 19: the stored decay score and the user's "keep this" pin.
    decay: defaulted(col.real(0, 1), 1),
    pinned: defaulted(col.bool(), false),
  },
  key: ['id'],
  refs: [
    { column: 'run_id', table: 'context_runs', target: 'id' },
    { column: 'project_id', table: 'projects', target: 'id' },
    { column: 'document_id', table: 'documents', target: 'id' },
  ],
  newer: ['updated_at'],
  hidden: ['rid'],
});

const ruleSnapshot = nullable(col.object(16_000));

export const ruleHistory = defineTable({
  name: 'rule_history',
  columns: {
    id: col.int(1),
    rule_id: col.id(),
    project_id: nullable(col.id()),
    action: col.enum(['created', 'updated', 'drift', 'confirmed', 'edited', 'deleted', 'promoted', 'conflict', 'resolved', 'verdict', 'added']),
    actor: col.enum(['distill', 'user', 'system']),
    before: ruleSnapshot,
    after: ruleSnapshot,
    episodes: col.strings(50, 100),
    distill_id: nullable(col.id()),
    created_at: col.time(),
  },
  key: ['id'],
  surrogate: 'id',
  natural: ['rule_id', 'action', 'created_at'],
  refs: [{ column: 'project_id', table: 'projects', target: 'id' }],
});

export const ruleConflicts = defineTable({
  name: 'rule_conflicts',
  columns: {
    id: col.id(),
    project_id: nullable(col.id()),
    rule_a: col.id(),
    rule_b: col.id(),
    dimension: col.text(TEXT.short),
    confidence_a: col.real(0, 1),
    confidence_b: col.real(0, 1),
    detected_at: col.time(),
    resolved_at: nullable(col.time()),
    kept_rule_id: nullable(col.id()),
  },
  key: ['id'],
  refs: [{ column: 'project_id', table: 'projects', target: 'id' }],
  withoutRowid: true,
});

export const runLearning = defineTable({
  name: 'run_learning',
  columns: {
    run_id: col.id(),
    document_id: nullable(col.id()),
    project_id: nullable(col.id()),
    skill_id: col.text(TEXT.short),
    scene_type: col.enum(SCENES),
    input_summary: col.text(TEXT.rule),
    input_features: nullable(col.object(8_000)),
    intent: nullable(col.text(TEXT.message)),
    working_memory: nullable(col.object(256_000)),
    episodes: col.list(64_000),
    archived: col.bool(),
    created_at: col.time(),
  },
  key: ['run_id'],
  refs: [{ column: 'run_id', table: 'context_runs', target: 'id' }],
  withoutRowid: true,
});

/**
 * Migration 0013 (issue 19): the forgetting ledger — what faded, was compressed or deleted by policy, and the
 * user's "keep this". Carried in backups so a restored or moved library still says what it forgot and why.
 * `item_id` names an episode or rule that may no longer exist (that is the point), so it is not a reference.
 */
export const forgettingLedger = defineTable({
  name: 'forgetting_ledger',
  columns: {
    id: col.int(1),
    item_type: col.enum(['episode', 'rule']),
    item_id: col.id(),
    project_id: nullable(col.id()),
    action: col.enum(['faded', 'compressed', 'deleted']),
    reason: col.enum(['decay', 'ttl', 'budget', 'lru']),
    decay: nullable(col.real(0, 1)),
    text: col.text(TEXT.rule),
    created_at: col.time(),
    kept_at: nullable(col.time()),
  },
  key: ['id'],
  surrogate: 'id',
  natural: ['item_type', 'item_id', 'action', 'created_at'],
  refs: [],
});
