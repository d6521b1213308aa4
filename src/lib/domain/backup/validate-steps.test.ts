import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { ENGRAM_EXPORT_VERSION, type ExportFile } from './format';
import type { Row } from './table-spec';
import { TABLE_NAMES, type TableName } from './tables';
import { completeExport, completeExportInSteps } from './validate';

/**
 * Issue 16: the checks that need the whole file ran as one piece at the end of reading (~80 ms CPU natively for
 * 10,000 memories, nothing else could run). completeExportInSteps runs the same checks one at a time, pausing
 * between them — same result, same first error.
 */
function parts(edit?: (tables: Record<TableName, Row[]>, files: ExportFile[]) => void) {
  const tables = Object.fromEntries(TABLE_NAMES.map((n) => [n, []])) as unknown as Record<TableName, Row[]>;
  tables.projects.push({ id: 'p1', name: '长夜', created_at: 1, updated_at: 2 });
  tables.sessions.push({ id: 's1', project_id: 'p1', title: 't', snippet: '', summarized_at: null, is_collected: false, created_at: 1, last_active: 2, turn_count: 1 });
  tables.messages.push({ id: 7, session_id: 's1', turn_no: 1, role: 'user', content: 'x', symbols: [], is_collected: false, status: 'complete', created_at: 1, meta: null });
  const files: ExportFile[] = [{ projectId: 'p1', path: '.engram/style/guide.md', content: 'y' }];
  edit?.(tables, files);
  const head = { format: 'engram-export', version: ENGRAM_EXPORT_VERSION, exportedAt: '2026-01-17T10:30:00.000Z', app: { name: 'engram', version: '0.1.0', schemaVersion: 5 }, scope: { kind: 'all' } };
  return { head, tables, files, migratedFrom: ENGRAM_EXPORT_VERSION };
}

const error = async (f: () => unknown): Promise<EngineError> => {
  try {
    await f();
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('the whole-file checks in steps (issue 16)', () => {
  it('pauses between the checks, a table at a time, and gives what completeExport gives', async () => {
    let pauses = 0;
    const stepped = await completeExportInSteps(parts(), async () => void pauses++);
    expect(stepped).toEqual(completeExport(parts()));
    // settings, duplicates and references per table, scope, files.
    expect(pauses).toBe(1 + 2 * TABLE_NAMES.length + 2);
  });

  it('stops at the same first error as completeExport, with nothing after it run', async () => {
    const bad = () =>
      parts((tables) => {
        tables.messages.push({ ...(tables.messages[0] as Row) }); // a repeated key …
        tables.sessions.push({ ...(tables.sessions[0] as Row), id: 's2', project_id: 'nowhere' }); // … and a dangling reference
      });
    let pauses = 0;
    const stepped = await error(() => completeExportInSteps(bad(), async () => void pauses++));
    const whole = await error(() => completeExport(bad()));
    expect(stepped.message).toBe(whole.message);
    expect(stepped.details).toEqual(whole.details);
    expect(stepped.message).toContain('repeats the key');
    expect(pauses).toBeLessThan(1 + 2 * TABLE_NAMES.length);
  });
});
