import { EngineError } from '../errors';
import { ENGRAM_EXPORT_FORMAT, ENGRAM_EXPORT_VERSION } from './format';

/**
 * Older files are brought up to the current version, one step at a time, before validation; a file
 * from a newer Engram is refused (UNSUPPORTED_VERSION) — guessing at a format we do not know could
 * lose data silently.
 *
 * Version 0 was the first draft of the format (the Engram 0.0 previews, schema 0003): no `app`, no
 * `scope` (always everything), no project `files`, and profile versions without `restores`.
 * Version 1 kept a `context` excerpt in each symbol_index row (schema ≤ 0008); the turn's text holds it.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** steps[v] turns a version-v file into a version-(v+1) file. */
const steps: Record<number, (file: Json) => Json> = {
  0: (file) => {
    const tables = isObject(file.tables) ? file.tables : {};
    const profile = Array.isArray(tables.user_profile)
      ? tables.user_profile.map((row) => (isObject(row) ? { ...row, restores: row.restores ?? null } : row))
      : tables.user_profile;
    return {
      format: file.format,
      version: 1,
      exportedAt: file.exportedAt,
      app: { name: 'engram', version: '0.0.0', schemaVersion: 3 },
      scope: { kind: 'all' },
      tables: tables.user_profile === undefined ? tables : { ...tables, user_profile: profile },
      files: [],
    };
  },
  1: (file) => {
    const tables = isObject(file.tables) ? file.tables : {};
    const symbols = tables.symbol_index;
    return {
      ...file,
      version: 2,
      tables: Array.isArray(symbols)
        ? { ...tables, symbol_index: symbols.map((row) => (isObject(row) ? Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'context')) : row)) }
        : tables,
    };
  },
};

export interface MigratedFile {
  value: Json;
  /** The version the file was written in (equal to ENGRAM_EXPORT_VERSION when nothing was migrated). */
  from: number;
}

/** Checks `format` and `version`, then migrates; the result still has to pass exportSchema. */
export function migrateExportFile(raw: unknown): MigratedFile {
  if (!isObject(raw))
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `file`: expected a JSON object (an Engram export). Nothing was imported.', { fields: ['file'] });
  if (raw.format !== ENGRAM_EXPORT_FORMAT)
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `format`: this is not an Engram export (expected "engram-export"). Nothing was imported.', {
      fields: ['format'],
    });
  const version = raw.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `version`: expected a whole number. Nothing was imported.', { fields: ['version'] });
  if (version > ENGRAM_EXPORT_VERSION) throw newerVersion(version);
  let value: Json = raw;
  for (let v = version; v < ENGRAM_EXPORT_VERSION; v++) {
    const step = steps[v];
    if (!step) throw new Error(`no migration step from export version ${v}`);
    value = step(value);
  }
  return { value, from: version };
}

export function newerVersion(version: number): EngineError {
  return new EngineError(
    'UNSUPPORTED_VERSION',
    `This file was written by a newer Engram (export format ${version}; this app reads up to ${ENGRAM_EXPORT_VERSION}). Update Engram, then import it again. Nothing was imported.`,
    { fields: ['version'], version, supported: ENGRAM_EXPORT_VERSION },
  );
}
