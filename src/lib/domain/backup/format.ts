import { z } from 'zod';
import { MAX_FILE_CHARS, MAX_FILES, TEXT } from './limits';
import { lazyShape, rowsSchema, type Row, type TableSpec } from './table-spec';
import { TABLES, type TableName } from './tables';

/**
 * The Engram export format: one JSON document, the same in the app and the Node CLI (ARCHITECTURE §9).
 * docs/backup-format.md and docs/backup-format.schema.json are generated from these schemas.
 *
 *   { format: 'engram-export', version, exportedAt, app, scope, tables: { <table>: rows[] }, files: [...] }
 *
 * Rows carry the SQL columns by their SQL names; JSON columns hold JSON values, booleans are booleans.
 * Adding a table or a column with a default is backward compatible (older files simply lack it) and
 * keeps the version; anything else bumps ENGRAM_EXPORT_VERSION and adds a step to migrate-format.ts.
 */
export const ENGRAM_EXPORT_FORMAT = 'engram-export';
export const ENGRAM_EXPORT_VERSION = 2;

const id = z.string().min(1).max(100);

export const exportScopeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('project'), id }),
  z.strictObject({ kind: z.literal('session'), id }),
]);
export type ExportScope = z.output<typeof exportScopeSchema>;

/** A project setting file: project-relative path under `.engram/`, text content. */
export const exportFileSchema = z.strictObject({
  projectId: id,
  path: z.string().min(1).max(TEXT.path),
  content: z.string().max(MAX_FILE_CHARS),
});
export type ExportFile = z.output<typeof exportFileSchema>;

export const exportAppSchema = z.strictObject({
  name: z.literal('engram'),
  version: z.string().max(40),
  /** The database schema (migration number) the rows were read from. */
  schemaVersion: z.number().int().min(0),
});

// Built on first use (issue 16, cold start): a getter per table.
const tableSpecs = new Map(TABLES.map((t) => [t.name as string, t as unknown as TableSpec]));
const tableShape = lazyShape([...tableSpecs.keys()], (name) => rowsSchema(tableSpecs.get(name) as TableSpec)) as unknown as Record<
  TableName,
  ReturnType<typeof rowsSchema>
>;

export const exportTablesSchema = z.strictObject(tableShape);

export const exportSchema = z.strictObject({
  format: z.literal(ENGRAM_EXPORT_FORMAT),
  version: z.literal(ENGRAM_EXPORT_VERSION),
  exportedAt: z.iso.datetime({ offset: true }),
  app: exportAppSchema,
  scope: exportScopeSchema,
  tables: exportTablesSchema.default(Object.fromEntries(TABLES.map((t) => [t.name, []])) as unknown as Record<TableName, Row[]>),
  files: z.array(exportFileSchema).max(MAX_FILES).default([]),
});

/** A validated export. */
export interface EngramExport {
  format: typeof ENGRAM_EXPORT_FORMAT;
  version: typeof ENGRAM_EXPORT_VERSION;
  exportedAt: string;
  app: z.output<typeof exportAppSchema>;
  scope: ExportScope;
  tables: Record<TableName, Row[]>;
  files: ExportFile[];
}

/** The opening of a file, up to `"tables":{` — what the streaming exporter writes first. */
export function exportHeader(meta: Pick<EngramExport, 'exportedAt' | 'app' | 'scope'>): string {
  const head = { format: ENGRAM_EXPORT_FORMAT, version: ENGRAM_EXPORT_VERSION, exportedAt: meta.exportedAt, app: meta.app, scope: meta.scope };
  return `${JSON.stringify(head).slice(0, -1)},"tables":{`;
}

/** A file name for the save dialog, e.g. `engram-backup-2026-01-17.json`, `engram-project-p1-2026-01-17.json`. */
export function exportFileName(scope: ExportScope, at: Date): string {
  const day = at.toISOString().slice(0, 10);
  const tag = scope.kind === 'all' ? 'backup' : `${scope.kind}-${scope.id.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 12)}`;
  return `engram-${tag}-${day}.json`;
}
