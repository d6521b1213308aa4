import type { z } from 'zod';
import type { LocalDb } from './local-db';

/** Reads a preference, falling back to the schema's default when it is missing or no longer valid. */
export async function readPref<S extends z.ZodType>(db: LocalDb, key: string, schema: S): Promise<z.output<S>> {
  const row = await db.prefs.get(key);
  const parsed = schema.safeParse(row?.value);
  return parsed.success ? parsed.data : schema.parse(undefined);
}

export async function writePref<S extends z.ZodType>(db: LocalDb, key: string, schema: S, value: z.input<S>): Promise<z.output<S>> {
  const parsed = schema.parse(value);
  await db.prefs.put({ key, value: parsed });
  return parsed;
}
