import { describe, expect, it } from 'vitest';
import { devtoolsEnabled, DEVTOOLS_KEY } from './devtools';

const storage = (value: string | null) => ({ getItem: (k: string) => (k === DEVTOOLS_KEY ? value : null) });

describe('devtoolsEnabled: the console handle only where asked for (issue 13)', () => {
  it('is off in a normal session of the built app', () => {
    expect(devtoolsEnabled({ dev: false, storage: storage(null) })).toBe(false);
    expect(devtoolsEnabled({ dev: false, storage: storage('true') })).toBe(false);
    expect(devtoolsEnabled({ dev: false, storage: undefined })).toBe(false);
  });
  it('is on in development, or when engram.devtools is 1', () => {
    expect(devtoolsEnabled({ dev: true, storage: storage(null) })).toBe(true);
    expect(devtoolsEnabled({ dev: false, storage: storage('1') })).toBe(true);
  });
  it('blocked storage counts as off', () => {
    expect(devtoolsEnabled({ dev: false, storage: { getItem: () => { throw new Error('SecurityError'); } } })).toBe(false);
  });
});
