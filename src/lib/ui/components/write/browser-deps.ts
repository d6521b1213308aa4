/** The Write page's ports in the app: the page's engine connection, Dexie drafts, the model settings. */
import { createProvider } from '../../../domain/llm';
import type { EngineCaller } from '../../../engine/client/caller';
import { connection } from '../../app/connection.svelte';
import { modelSettings } from '../../app/model-settings.svelte';
import { i18n } from '../../i18n/i18n.svelte';
import { localDb, type LocalDb } from '../../local/local-db';
import type { DraftPort, WriteDeps } from './write-deps';

/** Dexie drafts that keep an empty text too (a chapter cleared on purpose is still newer than the saved one). */
export function dexieDrafts(db: LocalDb, now: () => number = Date.now): DraftPort {
  return {
    get: async (id) => {
      const row = await db.drafts.get(id);
      return row ? { text: row.text, updatedAt: row.updatedAt } : undefined;
    },
    put: async (id, text) => void (await db.drafts.put({ id, text, updatedAt: now() })),
    clear: async (id) => db.drafts.delete(id),
  };
}

export function browserWriteDeps(): WriteDeps {
  // The connection starts in the layout's onMount: reach it only when a call is made.
  const engine: EngineCaller = { call: (method, input, opts) => connection.engine.call(method, input, opts) };
  return {
    engine,
    drafts: dexieDrafts(localDb()),
    settings: () => modelSettings.ready(),
    provider: (s) => createProvider(s),
    locale: () => i18n.locale,
    now: Date.now,
    kickDistill: () => void connection.jobsApi?.kick('distill').catch(() => undefined),
    embeddings: () => (connection.ready ? connection.embeddings : null),
  };
}
