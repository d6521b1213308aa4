import type { Clock, IdGen } from '../domain/clock';
import type { Logger } from '../domain/log';
import type { StorageKind } from './protocol/types';
import type { SqlDriver } from './store/driver';
import type { ContextTuning } from './context/tuning';
import type { RetrievalConfig } from '../domain/recall/config';
import type { ProjectFileStore } from './files/project-file-store';
import type { ImportTuning } from './imports/import-service';
import type { EmbedFn } from './embeddings/semantic-service';
import type { FtsMerging } from './store/fts-merge';

/** What every handler factory receives. */
export interface EngineEnv {
  readonly driver: SqlDriver;
  readonly clock: Clock;
  readonly ids: IdGen;
  readonly log: Logger;
  /** `readOnly`: the storage was full at start-up and the database is open read-only (host/open-engine.ts). */
  readonly storage: { kind: StorageKind; reason: string | null; readOnly?: boolean };
  readonly startedAt: number;
  /** Project setting files (OPFS in the DB worker); absent = an in-memory store for this engine. */
  readonly files?: ProjectFileStore;
  /** Overrides of the context engine's limits (tests). */
  readonly context?: Partial<ContextTuning>;
  /** Overrides of the retrieval techniques and constants (tests, the ablation benchmark); read on every call. */
  readonly retrieval?: Partial<RetrievalConfig>;
  /** Overrides of an import's step size and abandonment time (tests). */
  readonly imports?: Partial<ImportTuning>;
  /** How a question is embedded (issue 18); default: the configured endpoint's POST /embeddings. The recall benchmark passes a cached one. */
  readonly embed?: EmbedFn;
  /** How FTS5 segments are merged (store/fts-merge.ts FtsMerging): 'keeper' (default) or 'automerge' (the Node hosts). */
  readonly ftsMerging?: FtsMerging;
}
