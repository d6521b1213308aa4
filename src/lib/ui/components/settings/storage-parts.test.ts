import { describe, expect, it } from 'vitest';
import { browserParts } from './storage-parts';

describe('browserParts: the browser’s split of this site’s storage', () => {
  it('names the parts a person knows, largest first, and folds the rest into "other"', () => {
    expect(browserParts({ usageDetails: { caches: 5_000_000, fileSystem: 7_000_000, indexedDB: 70_000, serviceWorkerRegistrations: 19_000, mystery: 5, empty: 0 } })).toEqual([
      { kind: 'fileSystem', bytes: 7_000_000 },
      { kind: 'caches', bytes: 5_000_000 },
      { kind: 'indexedDB', bytes: 70_000 },
      { kind: 'serviceWorkerRegistrations', bytes: 19_000 },
      { kind: 'other', bytes: 5 },
    ]);
  });

  it('a browser without the split (Firefox, Safari) lists nothing', () => {
    expect(browserParts({})).toEqual([]);
    expect(browserParts(null)).toEqual([]);
  });
});
