import { TABLES, type Row, type TableName, type TableSpec } from '../../domain/backup';
import { settingsSchema } from '../../domain/settings';
import { FTS_INDEXES, type FtsIndex } from './fts-index';

/**
 * The engine's half of the ONE table registry: for every table of domain/backup/tables.ts, which rows
 * belong to an export's scope, how a row's duplicate is recognised, and which full-text index follows
 * it. The type makes a missing table a compile error; registry.test.ts makes a table that exists in
 * the schema but is neither here nor in EXCLUDED_TABLES a test failure.
 *
 * Scope predicates are SQL conditions on the table's own columns. `$scope` is the project or session
 * id; `sel(outer, table, column)` is the condition "this row's `outer` column is the `column` of a `table` row
 * already selected", so a table can follow the rows of the tables before it (messages follow their sessions).
 * How it is written is the selection's business: a correlated EXISTS on the parent's captured rows for a page
 * of rows (an export: scope-slices.ts, issue 16), or on the parent's own predicate (a replace's removal:
 * scope-removal.ts).
 */
export type ScopeKind = 'all' | 'project' | 'session';
export type Sel = (outer: string, table: TableName, column: string) => string;
export type OwnPredicate = (sel: Sel) => string;

export interface DuplicateRule {
  /** A local row with other identity but these same values is the same thing (or collides with it). */
  readonly columns: readonly string[];
  /** SQL restricting the local rows considered, and the same condition on the incoming row. */
  readonly where?: string;
  readonly applies?: (row: Row) => boolean;
  /** When these also match it is a skip; otherwise a conflict (a unique index forbids both). */
  readonly same?: readonly string[];
  /** A duplicate keeps its own dependants: the incoming row's dependants are skipped. */
  readonly blocksChildren: boolean;
}

export interface EngineTable {
  readonly spec: TableSpec & { name: TableName };
  /** Which rows a project or session export owns (absent: none); an `all` export owns every row. */
  readonly own: Partial<Record<ScopeKind, OwnPredicate>>;
  readonly duplicate?: DuplicateRule;
  readonly fts?: FtsIndex;
  /** Derived rows to clear when an import rewrites a row (the file brings their new version): `table` rows whose `column` is its rowid. */
  readonly clears?: { readonly table: TableName; readonly column: string };
  /**
   * The table is one document's history (the profile's versions): if any incoming row conflicts, all
   * of them do, so two devices' histories are never interleaved into a version nobody wrote.
   */
  readonly atomic?: boolean;
}

type Entry = Omit<EngineTable, 'spec'>;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const project = (column = 'project_id'): OwnPredicate => () => `${column} = $scope`;
const ofSessions: OwnPredicate = (sel) => sel('session_id', 'sessions', 'id');
const ofRuns: OwnPredicate = (sel) => sel('run_id', 'context_runs', 'id');
/** Rows that only exist for a parent row follow it in every scope (also `all`: the snapshot's rows). */
const following = (p: OwnPredicate) => ({ all: p, project: p, session: p });

const ENTRIES: Record<TableName, Entry> = {
  projects: { own: { project: project('id') } },
  sessions: { own: { project: project(), session: () => 'id = $scope' } },
  messages: {
    own: { project: ofSessions, session: ofSessions },
    fts: FTS_INDEXES.messages,
    // The symbol rows of a message are derived from its text; the file carries those of the new text.
    clears: { table: 'symbol_index', column: 'turn_id' },
  },
  summaries: { own: { project: ofSessions, session: ofSessions }, fts: FTS_INDEXES.summaries },
  symbol_index: { own: following((sel) => sel('turn_id', 'messages', 'id')) },
  memories: {
    own: { project: project(), session: () => 'session_id = $scope' },
    // 001 dedupe: the same statement under the same key and scope is the same memory, whatever its id.
    duplicate: { columns: ['scope', 'project_id', 'key', 'content'], blocksChildren: true },
    fts: FTS_INDEXES.memories,
  },
  memory_history: { own: { project: (sel) => sel('memory_id', 'memories', 'id'), session: (sel) => sel('memory_id', 'memories', 'id') } },
  user_profile: { own: {}, atomic: true },
  // Only the settings this version knows (settingsSchema): a stale key is not data, and the importer
  // refuses unknown keys — nor can anything else that found its way into the table leave with a backup.
  settings: { own: { all: () => `key IN (${Object.keys(settingsSchema.shape).map(sqlString).join(', ')})` } },
  documents: { own: { project: project() } },
  context_runs: {
    own: {
      project: (sel) => `project_id = $scope OR ${sel('session_id', 'sessions', 'id')} OR ${sel('document_id', 'documents', 'id')}`,
      session: () => 'session_id = $scope',
    },
  },
  feedback_events: { own: { project: ofRuns, session: ofRuns } },
  semantic_rules: {
    own: { project: project() },
    // One active rule per key and scope (unique index semantic_rules_active_key).
    duplicate: {
      columns: ['scope', 'project_id', 'key'],
      where: "status = 'active' AND key IS NOT NULL",
      applies: (row) => row.status === 'active' && row.key !== null,
      same: ['rule'],
      blocksChildren: false,
    },
  },
  generation_traces: { own: following(ofRuns) },
  kg_entities: { own: { project: project() } },
  kg_facts: { own: { project: project() } },
  // Writing memory that learns (issue 17).
  episodes: { own: { project: project() }, fts: FTS_INDEXES.episodes },
  rule_history: { own: { project: project() } },
  rule_conflicts: { own: { project: project() } },
  run_learning: { own: following(ofRuns) },
  // Memory that forgets on purpose (issue 19): the ledger goes with its project (global items: `all` only).
  forgetting_ledger: { own: { project: project() } },
};

export const REGISTRY: readonly EngineTable[] = TABLES.map((t) => ({ spec: t as unknown as EngineTable['spec'], ...ENTRIES[t.name] }));

export function registryEntry(name: TableName): EngineTable {
  return REGISTRY.find((e) => e.spec.name === name) as EngineTable;
}

/**
 * Tables deliberately not exported: engine bookkeeping, not user data. (FTS tables and their shadow
 * tables are derived indexes, rebuilt on import, and never exported either.)
 */
export const EXCLUDED_TABLES: Readonly<Record<string, string>> = {
  schema_version: 'which migrations ran; the importing database keeps its own',
  applied_ops: 'idempotency keys of writes already applied; they belong to the database that applied them',
  op_results: 'the answers to writes of the last two minutes, for a window that re-sends one; they belong to the database that applied them',
  job_runs: 'the log of background job runs (maintenance); jobs record new runs where they run',
  meta: 'facts about this database file, such as the segmenter version its search index was built with',
  distill_runs: 'the lease and log of background distillation runs; an imported database distills its episodes anew',
  // issue 14: imports from other apps
  import_runs: 'the journal of imports from other apps (what each wrote, to take an interrupted one back); the conversations themselves are exported',
  import_items: 'the conversations each import from another app wrote and how far their background memory extraction got; they belong to the database that ran it',
  embedding_models: 'derived: the embedding models this device has filled vectors for; the importing device embeds again with its own model (issue 18)',
  // issue 19: memory that forgets on purpose
  lifecycle_state: 'when each lifecycle phase last ran on this device and its last failure',
  embeddings: 'derived: vectors of turns and memories, recomputed in the background from the text by the configured model (issue 18)',
  // issue 19: clearing that means it
  memory_clear_log: 'the audit log of memory clears on this device (when, what, how many, which local profile); it belongs to the device where they happened',
  // issue 17: the per-project episode count, kept by triggers as episodes are written (an import's episodes count themselves)
  episode_counts: 'derived: how many episodes each project has, kept by triggers on episodes for the cap check of every episode write',
};
