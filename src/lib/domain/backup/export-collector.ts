import { EngineError } from '../errors';
import { ENGRAM_EXPORT_FORMAT, ENGRAM_EXPORT_VERSION, type ExportFile } from './format';
import type { SplitEvent } from './json-splitter';
import { MAX_FILES, MAX_ROWS_PER_TABLE } from './limits';
import { newerVersion } from './migrate-format';
import type { Row } from './table-spec';
import { isTableName, TABLE_NAMES, type TableName } from './tables';
import { completeExport, completeExportInSteps, validateExport, validateFile, validateRow, type ValidatedExport } from './validate';

/**
 * Gathers what the splitter cuts out of a file and checks it as it comes. A file of the current version
 * (our exporter writes `format` and `version` first) has each row validated the moment it arrives, so
 * the work is spread over the whole read and no raw copy is kept; anything else (an older version to
 * migrate, an unusual key order) is kept raw and validated whole at the end, as validateExport does.
 *
 *   head/row/file events ─▶ current version? ─ yes ─▶ validateRow / validateFile now ─▶ completeExport
 *                                            └─ no ──▶ keep raw ─────────────────────▶ validateExport
 */
export function createExportCollector() {
  const head: Record<string, unknown> = {};
  const rows = Object.fromEntries(TABLE_NAMES.map((n) => [n, []])) as unknown as Record<TableName, Row[]>;
  const files: ExportFile[] = [];
  const raw = { tables: {} as Record<string, unknown[]>, files: [] as unknown[] };
  let live: boolean | null = null;
  let count = 0;

  /** Decided at the first row or file: are format and version already known to be current? */
  const validatingNow = () => (live ??= head.format === ENGRAM_EXPORT_FORMAT && head.version === ENGRAM_EXPORT_VERSION);

  function checkHead(key: string, value: unknown): void {
    if (key === 'format' && value !== ENGRAM_EXPORT_FORMAT)
      throw new EngineError('INVALID_ARGUMENT', 'Invalid `format`: this is not an Engram export (expected "engram-export"). Nothing was imported.', {
        fields: ['format'],
      });
    if (key === 'version' && typeof value === 'number' && value > ENGRAM_EXPORT_VERSION) throw newerVersion(value);
  }

  return {
    accept(event: SplitEvent): void {
      count++;
      if (event.kind === 'head') {
        checkHead(event.key, event.value);
        head[event.key] = event.value;
        return;
      }
      if (event.kind === 'row') {
        const { table, index } = event;
        if (!isTableName(table))
          throw new EngineError('INVALID_ARGUMENT', 'Invalid `tables`: it has a table this version of Engram does not know. Nothing was imported.', {
            fields: ['tables'],
          });
        if (index >= MAX_ROWS_PER_TABLE)
          throw new EngineError('INVALID_ARGUMENT', `Invalid \`tables.${table}\`: more than ${MAX_ROWS_PER_TABLE} rows. Nothing was imported.`, {
            fields: [`tables.${table}`],
          });
        if (validatingNow()) rows[table].push(validateRow(table, index, event.value));
        else (raw.tables[table] ??= []).push(event.value);
        return;
      }
      if (event.index >= MAX_FILES)
        throw new EngineError('INVALID_ARGUMENT', `Invalid \`files\`: more than ${MAX_FILES} files. Nothing was imported.`, { fields: ['files'] });
      if (validatingNow()) files.push(validateFile(event.index, event.value));
      else raw.files.push(event.value);
    },
    /** How many values have arrived (for progress and for yielding to other calls). */
    get count(): number {
      return count;
    },
    finish(): ValidatedExport {
      if (live) return completeExport({ head, tables: rows, files, migratedFrom: ENGRAM_EXPORT_VERSION });
      return validateExport({ ...head, tables: raw.tables, files: raw.files });
    },
    /** finish, with `pause` between the whole-file checks of a file validated as it came (the usual case). */
    async finishInSteps(pause: () => Promise<void>): Promise<ValidatedExport> {
      if (live) return completeExportInSteps({ head, tables: rows, files, migratedFrom: ENGRAM_EXPORT_VERSION }, pause);
      return validateExport({ ...head, tables: raw.tables, files: raw.files });
    },
  };
}
