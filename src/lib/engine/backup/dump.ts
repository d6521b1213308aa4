import { canonicalDump, type CanonicalDump } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import { EXCLUDED_TABLES, REGISTRY } from './registry';
import { schemaTables } from './schema-tables';

const hidden = new Map(REGISTRY.map((e) => [e.spec.name, e.spec.hidden ?? []]));

/**
 * Every ordinary table's rows (hidden internal keys aside) and every project file, canonically: read
 * straight from SQLite, not through the exporter, so a round trip can be judged against it. Used by the
 * Node round trip and the Chromium one (which reads the page's database file).
 */
/** The part of the file store a dump reads. */
export interface DumpFiles {
  list(projectId: string): Promise<{ path: string }[]>;
  read(projectId: string, path: string): Promise<string | null>;
}

export async function dumpDatabase(t: { driver: SqlDriver; files: DumpFiles }): Promise<CanonicalDump> {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const name of schemaTables(t.driver)) {
    if (name in EXCLUDED_TABLES) continue;
    const drop = hidden.get(name as never) ?? [];
    tables[name] = t.driver.all<Record<string, unknown>>(`SELECT * FROM ${name}`).map((r) => {
      const row = { ...r };
      for (const h of drop) delete row[h];
      return row;
    });
  }
  const projects = t.driver.all<{ id: string }>('SELECT id FROM projects').map((r) => r.id);
  const files = [];
  for (const projectId of projects) {
    for (const e of await t.files.list(projectId)) files.push({ projectId, path: e.path, content: (await t.files.read(projectId, e.path)) ?? '' });
  }
  return canonicalDump({ tables, files });
}
