import { describe, expect, it } from 'vitest';
import { cleanupInput, type CleanupChoice } from './backup-cleanup-input';

const base: CleanupChoice = { mode: 'older', days: 30, sessionId: 's1', typed: '', word: 'DELETE' };

describe('cleanup form → cleanup.run (002 memory_cleanup)', () => {
  it.each([
    ['30 days', { days: 30 }, { olderThanDays: 30 }],
    ['0 days', { days: 0 }, null],
    ['a fraction of a day', { days: 1.5 }, null],
    ['more than 100 years', { days: 36_501 }, null],
    ['one conversation', { mode: 'session' }, { sessionId: 's1' }],
    ['no conversation chosen', { mode: 'session', sessionId: '' }, null],
    ['everything without the word', { mode: 'all', typed: 'delet' }, null],
    ['everything with the word', { mode: 'all', typed: ' delete ' }, { all: true, confirm: true }],
    ['everything with the Chinese word', { mode: 'all', typed: '删除', word: '删除' }, { all: true, confirm: true }],
  ] as const)('%s', (_, change, expected) => {
    expect(cleanupInput({ ...base, ...change })).toEqual(expected);
  });
});
