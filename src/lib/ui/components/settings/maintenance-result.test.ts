import { describe, expect, it } from 'vitest';
import { summarizeMaintenance, jobStepKey } from './maintenance-result';

describe('summarizeMaintenance', () => {
  it('reads a successful run', () => {
    const run = { status: 'ok' as const, result: { optimizeMs: 12, ftsTables: 3, ftsMergeMs: 40, integrity: 'ok', integrityMs: 7 } };
    expect(summarizeMaintenance(run)).toEqual({ optimizeMs: 12, ftsTables: 3, ftsMergeMs: 40, integrity: 'ok', integrityMs: 7, error: null });
  });

  it.each([
    { result: { error: 'integrity check found 2 problem(s)' }, integrity: 'problems', error: 'integrity check found 2 problem(s)' },
    { result: { error: 'database is locked' }, integrity: null, error: 'database is locked' },
    { result: {}, integrity: null, error: 'failed' },
  ])('reads a failed run: $error', ({ result, integrity, error }) => {
    expect(summarizeMaintenance({ status: 'failed', result })).toMatchObject({ integrity, error, optimizeMs: null });
  });

  it('ignores fields of the wrong type instead of showing them', () => {
    const s = summarizeMaintenance({ status: 'ok', result: { optimizeMs: 'fast', ftsTables: -1, integrity: 'maybe' } });
    expect(s).toMatchObject({ optimizeMs: null, ftsTables: null, integrity: null, error: null });
  });
});

describe('jobStepKey', () => {
  it.each([
    ['jobs.step.optimize', 'jobs:step.optimize'],
    ['jobs.step.fts-merge', 'jobs:step.fts-merge'],
    ['other.key', 'other.key'],
  ])('%s → %s', (step, key) => {
    expect(jobStepKey(step)).toBe(key);
  });
});
