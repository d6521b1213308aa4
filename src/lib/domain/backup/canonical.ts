import type { ExportFile } from './format';
import type { Row } from './table-spec';

/**
 * A canonical dump: every row as JSON with its keys sorted, every table's rows sorted, every file as a
 * line — so two stores hold the same data exactly when their dumps are equal, whatever order the rows
 * were written in. The round-trip tests compare dumps read straight from the database (not from an
 * export), so a column the exporter forgot shows up as a difference.
 */
export interface CanonicalDump {
  tables: Record<string, string[]>;
  files: string[];
}

/** JSON with object keys sorted at every level (arrays keep their order: it is data). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function canonicalDump(input: { tables: Record<string, readonly Row[]>; files?: readonly ExportFile[] }): CanonicalDump {
  const tables: Record<string, string[]> = {};
  for (const name of Object.keys(input.tables).sort()) {
    tables[name] = (input.tables[name] ?? []).map(canonicalJson).sort();
  }
  const files = (input.files ?? []).map(canonicalJson).sort();
  return { tables, files };
}
