/**
 * "Copy as JSON": the whole run record (and its trace when loaded) in a small, versioned envelope, so a
 * pasted record says what it is. Deterministic: no export time, keys in a fixed order.
 */
import type { GenerationTrace, RunRecord } from '../../../engine/context/types';

export const RUN_EXPORT_FORMAT = 'engram.context-run';
export const RUN_EXPORT_VERSION = 1;

export interface RunExport {
  format: typeof RUN_EXPORT_FORMAT;
  version: typeof RUN_EXPORT_VERSION;
  run: RunRecord;
  trace: GenerationTrace | null;
}

export function runExport(run: RunRecord, trace: GenerationTrace | null): RunExport {
  return { format: RUN_EXPORT_FORMAT, version: RUN_EXPORT_VERSION, run, trace };
}

export function runExportJson(run: RunRecord, trace: GenerationTrace | null): string {
  return JSON.stringify(runExport(run, trace), null, 2);
}
