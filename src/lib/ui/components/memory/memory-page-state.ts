import { connection } from '../../app/connection.svelte';
import { handleError } from '../../app/handle-error.svelte';
import { MemoriesState } from './memories-state.svelte';
import { ProfileState } from './profile-state.svelte';
import { RulesState } from './rules-state.svelte';
import type { StateDeps } from './state-deps';

/**
 * The memory page's states, on the page's connection. Module-level, so filters, the open memory and an
 * unsaved profile edit survive going to a chat and coming back.
 */
const deps: StateDeps = { engine: () => connection.engine, onError: handleError };

export const memoriesState = new MemoriesState(deps);
export const profileState = new ProfileState(deps);
export const rulesState = new RulesState(deps);
