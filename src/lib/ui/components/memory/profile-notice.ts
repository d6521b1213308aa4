import type { EngineCaller } from '../../../engine/client/caller';
import type { ProfileEffect } from '../../../engine/memory/types';
import type { Notice } from '../../app/handle-error.svelte';
import { t } from '../../i18n/i18n.svelte';

/** One change as words: added “…”, removed “…”, “old” → “new”. The lines are the user's own data, shown as text. */
export function describeProfileChanges(changes: ProfileEffect['profileChanges']): string {
  return changes
    .map((c) =>
      c.action === 'added'
        ? t('memory:profile.changeAdded', { text: c.text ?? '' })
        : c.action === 'removed'
          ? t('memory:profile.changeRemoved', { text: c.previous ?? '' })
          : t('memory:profile.changeReplaced', { previous: c.previous ?? '', text: c.text ?? '' }),
    )
    .join('; ');
}

/**
 * Issue 4 item 4: a profile change is never silent. The notice says what changed and offers Undo, which
 * takes back exactly that version — if the profile moved on since, it says so instead of undoing
 * someone else's change.
 */
export function profileChangeNotice(
  effect: ProfileEffect,
  deps: { engine: Pick<EngineCaller, 'call'>; push: (notice: Omit<Notice, 'id'>) => void },
): Omit<Notice, 'id'> | null {
  if (!effect.profileChanged || effect.profileChanges.length === 0) return null;
  return {
    kind: 'info',
    text: t('memory:profile.changed', { changes: describeProfileChanges(effect.profileChanges) }),
    action: {
      label: t('common:actions.undo'),
      run: async () => {
        const now = await deps.engine.call('profile.get', {});
        if (!now.ok) return;
        if (now.data.version !== effect.profileVersion) return void deps.push({ kind: 'info', text: t('memory:profile.changedSince') });
        const undone = await deps.engine.call('profile.undo', {});
        if (undone.ok) deps.push({ kind: 'info', text: t('memory:profile.undone') });
      },
    },
  };
}
