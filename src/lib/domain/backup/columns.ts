import { z } from 'zod';
import { MAX_JSON_COLUMN_CHARS } from './limits';

/**
 * Column specs of the export format. One spec gives both the zod schema a file's value must pass and
 * how the engine turns it into an SQL value (`kind`), so the two cannot drift:
 *
 *   text / int / real → as is        bool → 0 | 1        json → JSON text in SQLite, a JSON value in the file
 */
export type ColumnKind = 'text' | 'int' | 'real' | 'bool' | 'json';

export interface ColumnSpec<S extends z.ZodType = z.ZodType> {
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  readonly schema: S;
}

/**
 * A column whose zod schema is built on first use (issue 16, cold start): the export format has a few hundred
 * columns, and building their schemas at module load cost the DB worker's start ~10 ms of a first recall that
 * never reads them. Built once, then the same object on every read.
 */
function lazySpec<S extends z.ZodType>(kind: ColumnKind, nullable: boolean, build: () => S): ColumnSpec<S> {
  let schema: S | undefined;
  return {
    kind,
    nullable,
    get schema() {
      return (schema ??= build());
    },
  };
}

const spec = <S extends z.ZodType>(kind: ColumnKind, build: () => S): ColumnSpec<S> => lazySpec(kind, false, build);

/** JSON of at most `maxChars` characters once serialised (the depth is bounded by safe-json). */
function boundedJson<S extends z.ZodType>(schema: S, maxChars: number) {
  return schema.refine((v) => jsonChars(v) <= maxChars, `must be at most ${maxChars} characters as JSON`);
}

function jsonChars(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export const col = {
  /** A text id (uuid or our sequential ids). */
  id: () => spec('text', () => z.string().min(1).max(100)),
  text: (max: number) => spec('text', () => z.string().max(max)),
  enum: <const T extends readonly [string, ...string[]]>(values: T) => spec('text', () => z.enum(values)),
  int: (min = 0) => spec('int', () => z.number().int().min(min).max(Number.MAX_SAFE_INTEGER)),
  /** Milliseconds since the epoch. */
  time: () => spec('int', () => z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)),
  real: (min: number, max: number) => spec('real', () => z.number().min(min).max(max)),
  bool: () => spec('bool', () => z.boolean()),
  /** Any JSON value. */
  json: (maxChars = MAX_JSON_COLUMN_CHARS) => spec('json', () => boundedJson(z.json(), maxChars)),
  /** A JSON array of short strings (tags, symbols, ids). */
  strings: (maxItems: number, maxChars: number) => spec('json', () => z.array(z.string().max(maxChars)).max(maxItems)),
  /** A JSON object (not an array or a scalar). */
  object: (maxChars = MAX_JSON_COLUMN_CHARS) => spec('json', () => boundedJson(z.record(z.string(), z.json()), maxChars)),
  /** A JSON array of anything. */
  list: (maxChars = MAX_JSON_COLUMN_CHARS) => spec('json', () => boundedJson(z.array(z.json()), maxChars)),
};

/** The same column, allowing SQL NULL (JSON null in the file). */
export function nullable<S extends z.ZodType>(c: ColumnSpec<S>): ColumnSpec<z.ZodNullable<S>> {
  return lazySpec(c.kind, true, () => c.schema.nullable());
}

/**
 * A column added after the format's version was fixed (format.ts: "adding a column with a default is
 * backward compatible"): a file from before it lacks the column, and the row gets the SQL default.
 */
export function defaulted<S extends z.ZodType>(c: ColumnSpec<S>, value: z.input<S>): ColumnSpec<z.ZodDefault<S>> {
  return lazySpec(c.kind, c.nullable, () => c.schema.default(value as never) as z.ZodDefault<S>);
}
