import { clearAllMemory } from '../clearing/clear-all';
import { createClearLog } from '../clearing/clear-log';
import { clearProjectMemory } from '../clearing/clear-project';
import type { Services } from '../services';
import type { Handlers } from './index';

/** Issue 19 "clearing that means it": one project's memory, all memory, and the log of both. */
export function clearingHandlers(s: Services): Handlers<'memory.clearProject' | 'memory.clearAll' | 'memory.clearLog'> {
  const log = createClearLog(s.env);
  const c = s.context;
  return {
    'memory.clearProject': (input) => clearProjectMemory(c.deps, log, input),
    'memory.clearAll': (input) =>
      clearAllMemory(
        {
          env: s.env,
          log,
          forgetWorkingMemory: () => {
            s.workingMemory.forgetAll();
            c.deps.writing.forgetAll();
          },
        },
        input,
      ),
    'memory.clearLog': ({ limit }) => log.list({ limit }),
  };
}
