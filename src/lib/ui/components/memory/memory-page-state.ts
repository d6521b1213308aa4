import { connection } from '../../app/connection.svelte';
import { handleError } from '../../app/handle-error.svelte';
import { MemoriesState } from './memories-state.svelte';
import { ProfileState } from './profile-state.svelte';
import { RulesState } from './rules-state.svelte';
import { LearningState, type JobsPort } from './learning-state.svelte';
import type { StateDeps } from './state-deps';

/**
 * The memory page's states, on the page's connection. Module-level, so filters, the open memory and an
 * unsaved profile edit survive going to a chat and coming back.
 */
const deps: StateDeps = { engine: () => connection.engine, onError: handleError };

export const memoriesState = new MemoriesState(deps);
export const profileState = new ProfileState(deps);
export const rulesState = new RulesState(deps);

/** The jobs worker of this tab: "update preferences" runs distillation there; its progress streams back. */
const jobs: JobsPort = {
  run: async (name) => {
    const api = connection.jobsApi;
    if (!api) throw new Error('jobs worker not started');
    return api.run(name);
  },
  progress: (name) => connection.jobs[name],
};
export const learningState = new LearningState({ ...deps, jobs }, () => rulesState.scope);
