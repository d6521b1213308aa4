import { describe, expect, it } from 'vitest';
import { settingsHref, settingsPageFor } from './settings-pages';

describe('settings pages (issue 15)', () => {
  it.each([
    ['', '/settings/general'],
    ['#model', '/settings/model'],
    ['#backup', '/settings/backup'],
    ['#outbox', '/settings/storage#outbox'],
    ['#setting-memory-enable-user-profile', '/settings/memory#setting-memory-enable-user-profile'],
    ['#nothing-like-this', '/settings/general#nothing-like-this'],
  ])('an old link %j opens %s', (hash, href) => {
    expect(settingsHref(hash)).toBe(href);
  });

  it('erase lives with the storage figure', () => {
    expect(settingsPageFor('#erase')).toBe('storage');
  });
});
