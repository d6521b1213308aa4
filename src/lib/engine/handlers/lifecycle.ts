import type { Services } from '../services';
import type { Handlers } from './index';

/** Memory that forgets on purpose (issue 19): the lifecycle pass, its status, the forgetting ledger. */
export function lifecycleHandlers(s: Services): Handlers<'lifecycle.status' | 'lifecycle.run' | 'lifecycle.ledger' | 'lifecycle.keep' | 'lifecycle.summaryCandidates' | 'lifecycle.compressWith'> {
  const l = s.lifecycle;
  return {
    'lifecycle.status': () => l.status(),
    // The pass makes its own short transactions (then), outside the call's write transaction.
    'lifecycle.run': ({ phases, vacuum }) => ({ announceAfter: true, write: () => null, then: () => l.run({ phases, vacuum }) }),
    'lifecycle.ledger': (input) => l.ledger.list(input),
    'lifecycle.keep': ({ itemType, itemId }) => l.ledger.keep(itemType, itemId),
    'lifecycle.summaryCandidates': (input) => l.summaryCandidates(input),
    'lifecycle.compressWith': ({ items }) => l.compressWith(items),
  };
}
