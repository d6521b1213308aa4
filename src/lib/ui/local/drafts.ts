import type { LocalDb } from './local-db';

/** Draft autosave: every keystroke lands in IndexedDB, so a crash or reload loses nothing. */
export function draftStore(db: LocalDb) {
  return {
    async load(id: string): Promise<string> {
      return (await db.drafts.get(id))?.text ?? '';
    },
    async save(id: string, text: string): Promise<void> {
      if (text === '') await db.drafts.delete(id);
      else await db.drafts.put({ id, text, updatedAt: Date.now() });
    },
    async clear(id: string): Promise<void> {
      await db.drafts.delete(id);
    },
    async any(): Promise<boolean> {
      return (await db.drafts.count()) > 0;
    },
  };
}
