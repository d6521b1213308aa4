import { z } from 'zod';
import { normaliseProjectPath } from '../context/project-path';
import { EngineError } from '../errors';
import { settingsSchema } from '../settings';
import { invalidArgument } from '../validation';
import { ENGRAM_EXPORT_FORMAT, ENGRAM_EXPORT_VERSION, exportAppSchema, exportFileSchema, exportScopeSchema, type EngramExport, type ExportFile } from './format';
import { MAX_FILES, MAX_ROWS_PER_TABLE } from './limits';
import { migrateExportFile } from './migrate-format';
import { keyOf, rowSchema, type Row, type TableSpec } from './table-spec';
import { TABLES, type TableName } from './tables';

/**
 * Everything an import checks before it touches the database, in order: format and version (older
 * files migrate), the envelope, every row against its table's schema (stopping at the first bad one,
 * so a hostile file cannot make us collect a million issues), settings against the settings schema,
 * duplicate keys, references that lead nowhere, and the project files' paths. Every failure is
 * INVALID_ARGUMENT (or UNSUPPORTED_VERSION) naming the field, e.g. `tables.messages[3].session_id`.
 */
const headShape = {
  format: z.literal(ENGRAM_EXPORT_FORMAT),
  version: z.literal(ENGRAM_EXPORT_VERSION),
  exportedAt: z.iso.datetime({ offset: true }),
  app: exportAppSchema,
  scope: exportScopeSchema,
};
/** The envelope without its rows and files. */
const headSchema = z.strictObject(headShape);
const skeleton = z.strictObject({
  ...headShape,
  tables: z
    .strictObject(Object.fromEntries(TABLES.map((t) => [t.name, z.array(z.unknown()).max(MAX_ROWS_PER_TABLE).default([])])) as Record<
      TableName,
      z.ZodDefault<z.ZodArray<z.ZodUnknown>>
    >)
    .default(Object.fromEntries(TABLES.map((t) => [t.name, []])) as never),
  files: z.array(z.unknown()).max(MAX_FILES).default([]),
});

// Each table's row schema is built the first time a row of it is checked (issue 16, cold start).
const rowSchemas = new Map<TableName, z.ZodType<Row>>();
const rowSchemaOf = (table: TableName): z.ZodType<Row> | undefined => {
  let schema = rowSchemas.get(table);
  if (!schema) {
    const spec = TABLES.find((t) => t.name === table);
    if (!spec) return undefined;
    schema = rowSchema(spec as unknown as TableSpec) as unknown as z.ZodType<Row>;
    rowSchemas.set(table, schema);
  }
  return schema;
};

export interface ValidatedExport {
  file: EngramExport;
  /** The version the file was written in. */
  migratedFrom: number;
}

/** One row of a table, against its schema; the error names it, e.g. `tables.memories[3].confidence`. */
export function validateRow(table: TableName, index: number, raw: unknown): Row {
  const res = (rowSchemaOf(table) as z.ZodType<Row>).safeParse(raw);
  if (!res.success) throw nothingImported(invalidArgument(res.error, `tables.${table}[${index}]`));
  return res.data;
}

export function validateFile(index: number, raw: unknown): ExportFile {
  const res = exportFileSchema.safeParse(raw);
  if (!res.success) throw nothingImported(invalidArgument(res.error, `files[${index}]`));
  return res.data;
}

/** A whole parsed file: migrated to the current version, then every check. */
export function validateExport(raw: unknown): ValidatedExport {
  const { value, from } = migrateExportFile(raw);
  const top = skeleton.safeParse(value);
  if (!top.success) throw nothingImported(invalidArgument(top.error));
  const tables = {} as Record<TableName, Row[]>;
  for (const t of TABLES) tables[t.name] = (top.data.tables[t.name] as unknown[]).map((row, i) => validateRow(t.name, i, row));
  const { tables: _rows, files: rawFiles, ...head } = top.data;
  return completeExport({ head, tables, files: rawFiles.map((f, i) => validateFile(i, f)), migratedFrom: from });
}

/**
 * The checks that need the whole file, once every row and file has passed its own: the envelope,
 * settings, duplicate keys, references, the scope and the project files' paths.
 */
export function completeExport(parts: { head: unknown; tables: Record<TableName, Row[]>; files: ExportFile[]; migratedFrom: number }): ValidatedExport {
  const { file, checks } = wholeFileChecks(parts);
  for (const check of checks) check();
  return { file, migratedFrom: parts.migratedFrom };
}

/**
 * completeExport's checks one at a time with `pause` between them (issue 16: at 10,000 memories they were one
 * run of tens of milliseconds that no other call could interrupt): the same checks in the same order, so the same
 * first error.
 */
export async function completeExportInSteps(
  parts: { head: unknown; tables: Record<TableName, Row[]>; files: ExportFile[]; migratedFrom: number },
  pause: () => Promise<void>,
): Promise<ValidatedExport> {
  const { file, checks } = wholeFileChecks(parts);
  for (const check of checks) {
    check();
    await pause();
  }
  return { file, migratedFrom: parts.migratedFrom };
}

/** The envelope checked, and the rest of the whole-file checks, a table at a time where they go by table. */
function wholeFileChecks(parts: { head: unknown; tables: Record<TableName, Row[]>; files: ExportFile[] }): { file: EngramExport; checks: (() => void)[] } {
  const top = headSchema.safeParse(parts.head);
  if (!top.success) throw nothingImported(invalidArgument(top.error));
  const { tables, files } = parts;
  const file: EngramExport = { ...top.data, tables, files };
  const references = referenceChecks(tables);
  return {
    file,
    checks: [
      () => checkSettings(tables.settings),
      ...TABLES.map((t) => () => checkDuplicates(t as unknown as TableSpec, tables[t.name])),
      ...references,
      () => checkScope(file),
      () => checkFiles(file),
    ],
  };
}

function nothingImported(err: EngineError): EngineError {
  return new EngineError(err.code, `${err.message.replace(/\.$/, '')}. Nothing was imported.`, err.details);
}

function invalid(field: string, message: string): EngineError {
  return new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: ${message}. Nothing was imported.`, { fields: [field] });
}

function checkSettings(rows: Row[]): void {
  const shape = settingsSchema.shape as Record<string, z.ZodType>;
  rows.forEach((row, i) => {
    const key = row.key as string;
    if (!Object.hasOwn(shape, key)) throw invalid(`tables.settings[${i}].key`, 'not a setting this version of Engram knows');
    if (!(shape[key] as z.ZodType).safeParse(row.value).success)
      throw invalid(`tables.settings[${i}].value`, 'not a valid value for this setting');
  });
}

function checkDuplicates(t: TableSpec, rows: Row[]): void {
  const seen = new Map<string, number>();
  const natural = t.naturalUnique ? new Map<string, number>() : null;
  rows.forEach((row, i) => {
    const key = keyOf(t, row);
    const first = seen.get(key);
    if (first !== undefined) throw invalid(`tables.${t.name}[${i}].${t.key.join('+')}`, `repeats the key of tables.${t.name}[${first}]`);
    seen.set(key, i);
    if (natural && t.natural) {
      const nk = keyOf(t, row, t.natural);
      const other = natural.get(nk);
      if (other !== undefined) throw invalid(`tables.${t.name}[${i}].${t.natural.join('+')}`, `repeats tables.${t.name}[${other}]`);
      natural.set(nk, i);
    }
  });
}

/** Every foreign key must name a row in the same file: exports include the rows their rows need. */
/** Every reference resolves inside the file: one check per table (the targets' keys are gathered once). */
function referenceChecks(tables: Record<TableName, Row[]>): (() => void)[] {
  const keys = new Map<string, Set<unknown>>();
  const keysOf = (table: TableName, column: string): Set<unknown> => {
    const id = `${table}.${column}`;
    let set = keys.get(id);
    if (!set) {
      set = new Set(tables[table].map((r) => r[column]));
      keys.set(id, set);
    }
    return set;
  };
  return TABLES.map((t) => () => {
    for (const ref of (t as unknown as TableSpec).refs) {
      const targets = keysOf(ref.table as TableName, ref.target);
      tables[t.name].forEach((row, i) => {
        const value = row[ref.column];
        if (value !== null && !targets.has(value))
          throw invalid(`tables.${t.name}[${i}].${ref.column}`, `refers to a row of \`${ref.table}\` that is not in the file`);
      });
    }
  });
}

function checkScope(file: EngramExport): void {
  const { scope, tables } = file;
  if (scope.kind === 'project' && !tables.projects.some((p) => p.id === scope.id))
    throw invalid('scope.id', 'the exported project is not in the file');
  if (scope.kind === 'session' && !tables.sessions.some((s) => s.id === scope.id))
    throw invalid('scope.id', 'the exported conversation is not in the file');
}

function checkFiles(file: EngramExport): void {
  const projects = new Set(file.tables.projects.map((p) => p.id));
  const seen = new Set<string>();
  file.files.forEach((f, i) => {
    if (!projects.has(f.projectId)) throw invalid(`files[${i}].projectId`, 'refers to a project that is not in the file');
    let path: string;
    try {
      path = normaliseProjectPath(f.path, `files[${i}].path`);
    } catch (err) {
      throw err instanceof EngineError ? nothingImported(err) : err;
    }
    if (!path.startsWith('.engram/')) throw invalid(`files[${i}].path`, 'project files live under `.engram/`');
    const id = `${f.projectId}/${path}`;
    if (seen.has(id)) throw invalid(`files[${i}].path`, 'repeats an earlier file of the same project');
    seen.add(id);
    f.path = path;
  });
}
