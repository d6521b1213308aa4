import { profileHintsFor, syncProfileHints, type MemoryRecord } from '../../domain/memory';
import type { HistoryActor } from '../store/memory-rows';
import type { ProfileRepo } from '../store/profile-repo';
import type { ProfileEffect } from './types';

type Learned = Pick<MemoryRecord, 'key' | 'value' | 'language'>;

const hintsOf = (memories: readonly Learned[]) => memories.flatMap((m) => profileHintsFor({ ...m, language: m.language ?? 'en' }));

/**
 * Issue 4 item 4: what a memory put into the profile leaves with it. When memories go (deleted, undone,
 * cleared) or come back (an undo restores what they replaced), the profile follows in a new version —
 * visible in its history and undoable with profile.undo, like every extraction.
 */
export function createProfileSync(deps: { profile: ProfileRepo }) {
  return {
    sync(change: { gone: readonly Learned[]; back?: readonly Learned[] }, meta: { actor: HistoryActor; reason: string }): ProfileEffect {
      const before = deps.profile.get();
      const gone = hintsOf(change.gone);
      const back = hintsOf(change.back ?? []);
      if (gone.length === 0 && back.length === 0) return { profileChanged: false, profileChanges: [], profileVersion: before.version };
      const applied = syncProfileHints(before.content, { gone, back });
      if (!applied.changed) return { profileChanged: false, profileChanges: [], profileVersion: before.version };
      const after = deps.profile.write(applied.text, meta);
      return { profileChanged: after.version !== before.version, profileChanges: applied.changes, profileVersion: after.version };
    },
  };
}

export type ProfileSync = ReturnType<typeof createProfileSync>;
