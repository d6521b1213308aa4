import { describe, expect, it } from 'vitest';
import type { ImportPlanPreview } from '../../../engine/imports';
import { namedFiles, nothingToImport, progressFraction } from './import-other-flow';

describe('import from other apps: the page’s flow helpers', () => {
  it('a folder’s files are named by their path inside it; a file by its name', () => {
    const inFolder = Object.assign(new File(['x'], 'a.md'), { webkitRelativePath: 'logs/2026-01/a.md' });
    const single = new File(['x'], 'conversations.json');
    expect(namedFiles([inFolder, single]).map((f) => f.name)).toEqual(['2026-01/a.md', 'conversations.json']);
  });

  it('nothing to import when no message and no setting file would be added', () => {
    const base = { messages: { incoming: 2, add: 0, skip: 2 }, lorebook: null } as unknown as ImportPlanPreview;
    expect(nothingToImport(base)).toBe(true);
    expect(nothingToImport({ ...base, messages: { incoming: 2, add: 1, skip: 1 } })).toBe(false);
    expect(nothingToImport({ ...base, lorebook: { projectId: 'p', projectName: 'P', projectExists: true, files: { incoming: 1, add: 1, update: 0, skip: 0, conflict: 0, removed: 0 } } })).toBe(false);
  });

  it('progress is the share of messages written', () => {
    expect(progressFraction(null)).toBeUndefined();
    expect(progressFraction({ token: 't', runId: 'r', done: false, conversations: { done: 1, total: 4 }, messages: { done: 25, total: 100 } })).toBe(0.25);
    expect(progressFraction({ token: 't', runId: 'r', done: true, conversations: { done: 0, total: 0 }, messages: { done: 0, total: 0 } })).toBe(1);
  });
});
