import { EngineError } from '../errors';
import { ENGRAM_EXPORT_FORMAT, ENGRAM_EXPORT_VERSION } from './format';
import { MAX_BACKUP_BYTES } from './limits';
import { newerVersion } from './migrate-format';

/**
 * Refusals that need no parsing: a file too large to import, and one whose first bytes already say it
 * is not an Engram export or comes from a newer Engram. They run before the whole file is read, so a
 * 200 MB file costs nothing.
 */
const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

export function checkFileSize(bytes: number, field = 'file'): void {
  if (bytes > MAX_BACKUP_BYTES)
    throw new EngineError(
      'INVALID_ARGUMENT',
      `Invalid \`${field}\`: the file is ${mb(bytes)} MB; Engram imports files of up to ${mb(MAX_BACKUP_BYTES)} MB. Export a project or a conversation instead. Nothing was imported.`,
      { fields: [field], bytes, maxBytes: MAX_BACKUP_BYTES },
    );
  if (bytes === 0)
    throw new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: the file is empty. Nothing was imported.`, { fields: [field], bytes });
}

/**
 * Looks at the opening of the file (up to the `tables` key, where our exporter writes `format` and
 * `version`). Anything it cannot tell is left to the full validation.
 */
export function sniffExportHead(head: string, field = 'file'): void {
  const text = head.replace(/^\uFEFF?\s*/, '');
  if (text !== '' && !text.startsWith('{'))
    throw new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: this is not an Engram export (it is not a JSON object). Nothing was imported.`, {
      fields: [field],
    });
  const tablesAt = text.indexOf('"tables"');
  const prefix = tablesAt === -1 ? text : text.slice(0, tablesAt);
  const format = /"format"\s*:\s*"([^"\\]{0,60})"/.exec(prefix)?.[1];
  if (format !== undefined && format !== ENGRAM_EXPORT_FORMAT)
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `format`: this is not an Engram export (expected "engram-export"). Nothing was imported.', {
      fields: ['format'],
    });
  const version = /"version"\s*:\s*(\d{1,9})\b/.exec(prefix)?.[1];
  if (version !== undefined && Number(version) > ENGRAM_EXPORT_VERSION) throw newerVersion(Number(version));
}
