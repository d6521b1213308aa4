import type { Services } from '../services';
import type { Handlers } from './index';

export function recallHandlers(s: Services): Handlers<'recall.search' | 'search.messages' | 'cleanup.run'> {
  return {
    'recall.search': async (input) => {
      const cfg = s.settings.get();
      return s.recall.recall({ ...input, recentTurns: cfg['chat.recent_full_turns'], blockSize: cfg['chat.summary_block'] });
    },
    'search.messages': (input) => s.search.search(input),
    'cleanup.run': (input) => {
      const report = s.cleanup.run(input);
      // Working memories of conversations that no longer exist go with them.
      s.workingMemory.prune();
      return report;
    },
  };
}
