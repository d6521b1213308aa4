import { col, defaulted, nullable } from './columns';
import { TEXT } from './limits';
import { defineTable } from './table-spec';

/** Migration 0005: documents, context runs, feedback, semantic rules, traces, the knowledge graph (003/004). */

export const documents = defineTable({
  name: 'documents',
  columns: {
    id: col.id(),
    project_id: col.id(),
    title: col.text(TEXT.name),
    content: col.text(TEXT.document),
    created_at: col.time(),
    updated_at: col.time(),
  },
  key: ['id'],
  refs: [{ column: 'project_id', table: 'projects', target: 'id' }],
  newer: ['updated_at'],
});

export const contextRuns = defineTable({
  name: 'context_runs',
  columns: {
    id: col.id(),
    kind: col.enum(['chat', 'skill']),
    skill_id: col.text(TEXT.short),
    session_id: nullable(col.id()),
    message_id: nullable(col.int(1)),
    project_id: nullable(col.id()),
    document_id: nullable(col.id()),
    stable_prefix_hash: col.text(TEXT.hash),
    status: col.enum(['pending', 'completed', 'canceled', 'failed', 'timeout']),
    created_at: col.time(),
    finished_at: nullable(col.time()),
    layers: col.list(),
    memory_ids: col.strings(10_000, 100),
    total_tokens: col.int(),
    memory_degraded: col.bool(),
    input_chars: nullable(col.int()),
    messages: nullable(col.list()),
  },
  key: ['id'],
  refs: [
    { column: 'session_id', table: 'sessions', target: 'id' },
    { column: 'project_id', table: 'projects', target: 'id' },
    { column: 'document_id', table: 'documents', target: 'id' },
  ],
  softRefs: [{ column: 'message_id', table: 'messages', target: 'id' }],
  hidden: ['rid'],
});

export const feedbackEvents = defineTable({
  name: 'feedback_events',
  columns: {
    id: col.id(),
    run_id: col.id(),
    skill_id: col.text(TEXT.short),
    project_id: nullable(col.id()),
    action: col.enum(['accept', 'reject', 'partial']),
    sample_refs: col.list(256_000),
    edit_distance: nullable(col.real(0, 1)),
    features: col.object(64_000),
    created_at: col.time(),
    // Issue 17: the 003 implicit signal of the event.
    signal: defaulted(nullable(col.text(TEXT.short)), null),
  },
  key: ['id'],
  refs: [{ column: 'run_id', table: 'context_runs', target: 'id' }],
  hidden: ['rid'],
});

export const semanticRules = defineTable({
  name: 'semantic_rules',
  columns: {
    id: col.id(),
    rule: col.text(TEXT.rule),
    category: col.enum(['style', 'structure', 'character', 'pacing', 'vocabulary']),
    scope: col.enum(['global', 'project']),
    project_id: nullable(col.id()),
    key: nullable(col.text(TEXT.name)),
    confidence: col.real(0, 1),
    supporting: col.strings(10_000, 100),
    contradicting: col.strings(10_000, 100),
    user_confirmed: col.bool(),
    user_modified: col.bool(),
    source: col.enum(['user', 'learned']),
    version: col.int(1),
    status: col.enum(['active', 'deleted']),
    created_at: col.time(),
    updated_at: col.time(),
    // Issue 17: what a learned rule rests on, verdict penalties, the last time drift.
    basis: defaulted(col.list(8_000), []),
    penalty: defaulted(col.real(0, 1), 0),
    drifted_at: defaulted(nullable(col.time()), null),
    // Issue 19: the stored decay score and the user's "keep this" pin.
    decay: defaulted(col.real(0, 1), 1),
    pinned: defaulted(col.bool(), false),
  },
  key: ['id'],
  refs: [{ column: 'project_id', table: 'projects', target: 'id' }],
  newer: ['version', 'updated_at'],
  hidden: ['rid'],
});

export const generationTraces = defineTable({
  name: 'generation_traces',
  columns: {
    run_id: col.id(),
    refs: col.list(256_000),
    verdict: nullable(col.enum(['correct', 'incorrect'])),
    verdict_at: nullable(col.time()),
  },
  key: ['run_id'],
  refs: [{ column: 'run_id', table: 'context_runs', target: 'id' }],
  withoutRowid: true,
});

export const kgEntities = defineTable({
  name: 'kg_entities',
  columns: {
    id: col.id(),
    project_id: col.id(),
    type: col.enum(['character', 'place', 'object', 'organization', 'event', 'concept']),
    name: col.text(TEXT.name),
    aliases: col.strings(1_000, TEXT.name),
    source_ref: nullable(col.text(TEXT.path)),
    created_at: col.time(),
  },
  key: ['id'],
  refs: [{ column: 'project_id', table: 'projects', target: 'id' }],
});

const storyPoint = nullable(col.int());

export const kgFacts = defineTable({
  name: 'kg_facts',
  columns: {
    id: col.id(),
    project_id: col.id(),
    subject_id: col.id(),
    predicate: col.text(TEXT.name),
    object: col.text(TEXT.name),
    valid_from_chapter: storyPoint,
    valid_from_scene: storyPoint,
    valid_to_chapter: storyPoint,
    valid_to_scene: storyPoint,
    evidence: col.list(256_000),
    recorded_at: col.time(),
  },
  key: ['id'],
  refs: [
    { column: 'project_id', table: 'projects', target: 'id' },
    { column: 'subject_id', table: 'kg_entities', target: 'id' },
  ],
});
