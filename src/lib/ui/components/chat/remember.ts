import type * as Comlink from 'comlink';
import type { ModelSettings } from '../../../domain/llm/settings';
import type { EngineCaller } from '../../../engine/client/caller';
import type { JobsWorkerApi } from '../../../engine/jobs/worker-api';
import type { AfterReplyJob } from '../../../engine/turn/types';
import { handleError, notices } from '../../app/handle-error.svelte';
import { t } from '../../i18n/i18n.svelte';
import { profileChangeNotice } from '../memory/profile-notice';

/**
 * Off the UI thread: extraction (model or rules) and summary upkeep for the turn turn.finish queued; shows
 * "Remembered: …" with undo, what changed in the profile (with its own undo), and how many of the model's
 * suggestions were unusable. The queued job is marked done by the jobs worker; if this window closes first,
 * the jobs worker's periodic pass takes it up (jobs/after-reply-job.ts).
 */
export function rememberAfterReply(opts: { jobs: Comlink.Remote<JobsWorkerApi> | null; engine: EngineCaller; job: AfterReplyJob; settings: ModelSettings }): void {
  const { jobs, engine, job } = opts;
  if (!jobs) return;
  const tellProfile = (effect: Parameters<typeof profileChangeNotice>[0]) => {
    const notice = profileChangeNotice(effect, { engine, push: (n) => notices.push(n) });
    if (notice) notices.push(notice, 10_000);
  };
  void jobs
    .afterReply(job, opts.settings)
    .then((result) => {
      if (result.invalid > 0) notices.push({ kind: 'info', text: t('chat:extractionInvalid', { count: result.invalid }) });
      tellProfile(result.profile);
      for (const item of result.remembered) {
        const id = item.memoryId;
        notices.push(
          {
            kind: 'success',
            text: t('chat:remembered', { content: item.content }),
            ...(id
              ? {
                  action: {
                    label: t('common:actions.undo'),
                    run: async () => {
                      const undone = await engine.call('memory.undo', { id });
                      if (!undone.ok) return handleError(undone.error, 'memory.undo');
                      notices.push({ kind: 'info', text: t('chat:rememberedUndone') });
                      tellProfile(undone.data);
                    },
                  },
                }
              : {}),
          },
          10_000,
        );
      }
    })
    // The conversation itself is saved; the queued job stays until it is done, and is taken up again later.
    .catch((err: unknown) => handleError(err, 'chat.afterReply'));
}
