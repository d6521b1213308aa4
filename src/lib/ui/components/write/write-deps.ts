/**
 * What the Write page's state needs from the outside world, as ports, so the same state runs against the
 * browser's engine and Dexie in the app and against a real in-memory engine in tests.
 */
import type { EngineCaller } from '../../../engine/client/caller';
import type { ModelSettings } from '../../../domain/llm/settings';
import type { ModelProvider } from '../../../domain/llm/types';
import type { ErrorCode } from '../../../domain/errors';
import type { EmbeddingStatus } from '../../../engine/embeddings/types';

export interface DraftRecord {
  text: string;
  updatedAt: number;
}

/** The editor's crash insurance: every keystroke lands here (Dexie `drafts`, id `write:<documentId>`). */
export interface DraftPort {
  get(id: string): Promise<DraftRecord | undefined>;
  put(id: string, text: string): Promise<void>;
  clear(id: string): Promise<void>;
}

export interface WriteDeps {
  engine: EngineCaller;
  drafts: DraftPort;
  /** The model settings in force (await before the first model request). */
  settings: () => Promise<ModelSettings>;
  provider: (settings: ModelSettings) => ModelProvider;
  locale: () => 'en' | 'zh-CN';
  now: () => number;
  /** Pause in typing before the document is saved to the engine. */
  saveDelayMs?: number;
  /** Asks the jobs worker to look at distillation now (the engine said one is due, 003 批量触发). */
  kickDistill?: () => void;
  /**
   * Meaning-based recall as the page knows it (null while the engine is not up; absent: never asked). With an
   * embedding model, the text a skill run will recall by is embedded while the selection and instruction rest.
   */
  embeddings?: () => EmbeddingStatus | null;
}

export const draftId = (documentId: string) => `write:${documentId}`;

/** Failures the page can show: an engine code, or one of the page's own. */
export type WriteErrorCode = ErrorCode | 'SELECTION_CHANGED' | 'EMPTY_OUTPUT' | 'EDITED_SINCE';

export interface WriteError {
  code: WriteErrorCode;
  message: string;
}

/** In-memory drafts, for tests and for windows without IndexedDB. */
export function memoryDrafts(now: () => number): DraftPort & { rows: Map<string, DraftRecord> } {
  const rows = new Map<string, DraftRecord>();
  return {
    rows,
    get: async (id) => rows.get(id),
    put: async (id, text) => void rows.set(id, { text, updatedAt: now() }),
    clear: async (id) => void rows.delete(id),
  };
}
