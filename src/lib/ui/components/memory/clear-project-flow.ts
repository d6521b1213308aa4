import type { ConfirmRequest } from '../../app/confirm.svelte';
import { t } from '../../i18n/i18n.svelte';

/**
 * 003 "用户执行项目级清除" through the app's one confirmation dialog (issue 15: every destructive action asks
 * the same way): asks, clears only when the person confirms, then says what was cleared.
 * Returns whether the project's memory was cleared.
 */
export async function clearProjectConfirmed<R>(deps: {
  project: { id: string; name: string };
  ask: (request: ConfirmRequest) => Promise<boolean>;
  clear: (projectId: string) => Promise<R | null>;
  notify: (text: string) => void;
}): Promise<boolean> {
  const { project } = deps;
  const sure = await deps.ask({
    title: t('learning:clear.title', { name: project.name }),
    body: t('learning:clear.body'),
    confirmLabel: t('learning:clear.confirm'),
    tone: 'danger',
  });
  if (!sure) return false;
  const report = await deps.clear(project.id);
  if (report === null) return false;
  deps.notify(t('learning:clear.done', { name: project.name }));
  return true;
}
