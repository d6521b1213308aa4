import type { EngineCaller } from '../../engine/client/caller';
import type { EraseReport } from '../../engine/store/erase';
import type { LocalDb } from '../local/local-db';
import { MODEL_SETTINGS_KEY } from './model-settings.svelte';

/**
 * "Erase everything on this device" (issue 15), the page's part, in order:
 *
 *   1. the engine empties the database (every table, every index, VACUUM) and every project's files
 *   2. OPFS: the project folder, with anything a project left behind
 *   3. IndexedDB: drafts, the outbox, preferences (the model settings stay if asked to)
 *   4. localStorage / sessionStorage: the language, the theme, the guest flag
 *   5. every other tab is told, and each page starts again as on a first start
 *
 * Nothing local is touched unless the engine's part succeeded: a failure leaves everything as it was
 * and says so.
 */
export const ERASE_CHANNEL = 'engram-erase';

export interface EraseDeps {
  engine: Pick<EngineCaller, 'call'>;
  local: LocalDb;
  opfsRoot: () => Promise<{ removeEntry(name: string, opts?: { recursive?: boolean }): Promise<void> } | null>;
  storages: Storage[];
  announce: () => void;
}

export async function eraseEverything(deps: EraseDeps, opts: { keepModelSettings: boolean }): Promise<EraseReport> {
  const res = await deps.engine.call('system.erase', { confirm: true });
  if (!res.ok) throw res.error;
  const root = await deps.opfsRoot();
  if (root) {
    try {
      await root.removeEntry('projects', { recursive: true });
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'NotFoundError')) throw err;
    }
  }
  const db = deps.local;
  await db.transaction('rw', db.prefs, db.drafts, db.outbox, async () => {
    await db.drafts.clear();
    await db.outbox.clear();
    if (opts.keepModelSettings) await db.prefs.where('key').notEqual(MODEL_SETTINGS_KEY).delete();
    else await db.prefs.clear();
  });
  for (const storage of deps.storages) {
    for (const key of Object.keys(storage)) if (key.startsWith('engram.')) storage.removeItem(key);
  }
  deps.announce();
  return res.data;
}

/** The browser's own pieces, for the settings page. */
export function browserEraseDeps(engine: EraseDeps['engine'], local: LocalDb): EraseDeps {
  return {
    engine,
    local,
    opfsRoot: async () => (typeof navigator.storage?.getDirectory === 'function' ? navigator.storage.getDirectory() : null),
    storages: [localStorage, sessionStorage],
    announce: () => {
      const channel = new BroadcastChannel(ERASE_CHANNEL);
      channel.postMessage('erased');
      channel.close();
    },
  };
}
