import type { z } from 'zod';
import { EngineError } from './errors';

/**
 * A key that may appear in an error message: an identifier of at most 32 characters (`surrounding`,
 * `project-settings`, `memory.rag_top_n`). Anything else may be the user's text (a JSON object typed
 * by hand, a record's key) and is never echoed.
 */
const SAFE_KEY = /^[A-Za-z_$][\w$.-]{0,31}$/u;

export function isSafeKey(key: PropertyKey): key is string {
  return typeof key === 'string' && SAFE_KEY.test(key);
}

/** `a.b[2].c` from a zod issue path; a segment that is not a safe key shows as `[?]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (!isSafeKey(part)) out += '[?]';
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/**
 * Turns a zod failure into INVALID_ARGUMENT naming the field. The message is built from the schema
 * (expected types, limits, allowed keys) and never echoes the value the caller sent.
 */
export function invalidArgument(error: z.ZodError, root?: string): EngineError {
  const issues = closestBranch(error.issues).map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.filter(isSafeKey) : [];
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
      return unknownKeys(issue.keys);
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

/** "unknown field `x`", "unknown fields `x`, `y` and 2 more", or "an unknown field" when none is safe to show. */
function unknownKeys(keys: readonly string[]): string {
  const shown = keys.filter(isSafeKey).slice(0, 5);
  const rest = keys.length - shown.length;
  if (shown.length === 0) return rest > 1 ? `${rest} unknown fields` : 'an unknown field';
  const list = shown.map((k) => `\`${k}\``).join(', ');
  return `unknown field${keys.length > 1 ? 's' : ''} ${list}${rest > 0 ? ` and ${rest} more` : ''}`;
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

/**
 * A union's failure names the fields of the alternative that came closest (fewest issues), not the
 * root: an episode without its `candidates` says so (issue 19, 003 "episode 字段缺失"). Only when that
 * alternative failed inside the value: a value of none of the union's kinds keeps the union's own
 * message ("true or a list of character names"), not the first alternative's "expected boolean".
 */
function closestBranch(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0) return [issue];
    const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
    if (best.length === 0 || best.some((inner) => inner.path.length === 0)) return [issue];
    return closestBranch(best.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue));
  });
}
