import type { Services } from '../services';
import { createEraser } from '../store/erase';
import type { Handlers } from './index';

/** Issue 15: "Erase everything on this device" — the database's part (store/erase.ts). */
export function eraseHandlers(services: Services): Handlers<'system.erase'> {
  const erase = createEraser(services.env, {
    files: services.context.deps.files,
    // Conversations that no longer exist keep no working memory in this worker either.
    afterErase: () => services.workingMemory.prune(),
  });
  return { 'system.erase': (input) => erase(input) };
}
