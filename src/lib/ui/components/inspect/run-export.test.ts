import { describe, expect, it } from 'vitest';
import type { GenerationTrace, RunRecord } from '../../../engine/context/types';
import { runExport, runExportJson } from './run-export';

const run: RunRecord = {
  id: 'run-1',
  kind: 'skill',
  skillId: 'polish',
  sessionId: null,
  messageId: null,
  projectId: 'p-1',
  documentId: 'd-1',
  stablePrefixHash: 'a'.repeat(64),
  status: 'completed',
  createdAt: 1,
  finishedAt: 2,
  totalTokens: 42,
  memoryDegraded: false,
  layers: [],
  memoryIds: [],
  messages: null,
  messagesPruned: true,
};
const trace: GenerationTrace = { generationId: 'run-1', memoryReferences: [], verdict: null, verdictAt: null };

describe('a run copied as JSON', () => {
  it('wraps the whole record and its trace in a versioned envelope', () => {
    expect(runExport(run, trace)).toEqual({ format: 'engram.context-run', version: 1, run, trace });
    expect(JSON.parse(runExportJson(run, null))).toEqual({ format: 'engram.context-run', version: 1, run, trace: null });
  });

  it('is deterministic', () => {
    expect(runExportJson(run, trace)).toBe(runExportJson({ ...run }, { ...trace }));
  });
});
