import type { z } from 'zod';
import { EngineError } from './errors';

/** `a.b[2].c` from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * Turns a zod failure into INVALID_ARGUMENT naming the field. The message is built from the schema
 * (expected types, limits, allowed keys) and never echoes the value the caller sent.
 */
export function invalidArgument(error: z.ZodError, root?: string): EngineError {
  const issues = error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = formatPath(issue.path);
    const joined = root && path ? `${root}${path.startsWith('[') ? '' : '.'}${path}` : root || path;
    const field = joined || '(root)';
    return { field, code: issue.code, keys, message: describe(issue) };
  });
  const first = issues[0];
  const where = first ? `\`${first.field}\`` : 'input';
  const extra = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new EngineError('INVALID_ARGUMENT', `Invalid ${where}: ${first?.message ?? 'invalid value'}${extra}`, {
    fields: issues.map((i) => i.field),
    issues: issues.map(({ field, code, keys, message }) => ({ field, code, message, ...(keys.length ? { keys } : {}) })),
  });
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${sizeUnit(issue.origin)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${sizeUnit(issue.origin)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `expected a valid ${issue.format}`;
    default:
      // Custom refinements carry messages written by us, never user text.
      return issue.message;
  }
}

function sizeUnit(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array' || origin === 'set') return ' items';
  return '';
}

/** Parse or throw INVALID_ARGUMENT naming the field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root?: string): z.output<S> {
  const res = schema.safeParse(value);
  if (!res.success) throw invalidArgument(res.error, root);
  return res.data;
}
