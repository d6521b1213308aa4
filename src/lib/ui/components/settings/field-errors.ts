import type { z } from 'zod';
import type { IpcError } from '../../../domain/errors';
import { formatPath } from '../../../domain/validation';

/**
 * Validation failures keyed by form field, as data the form translates. Two sources share this shape:
 * zod issues from validating a form locally, and the engine's INVALID_ARGUMENT, whose `details.fields`
 * name the field (ARCHITECTURE §8) and whose `details.issues` carry the zod issue code.
 */
export type FieldErrorKind = 'type' | 'tooSmall' | 'tooBig' | 'tooLong' | 'url' | 'choice' | 'invalid';

export interface FieldError {
  kind: FieldErrorKind;
  /** The bound that was crossed, when the source says (zod does; the engine's message text is not parsed). */
  limit?: number;
}

export type FieldErrors = Record<string, FieldError>;

function kindOf(code: string, origin?: string): FieldErrorKind {
  switch (code) {
    case 'invalid_type':
      return 'type';
    case 'too_small':
      return 'tooSmall';
    case 'too_big':
      return origin === 'string' ? 'tooLong' : 'tooBig';
    case 'invalid_format':
      return 'url';
    case 'invalid_value':
      return 'choice';
    default:
      return 'invalid';
  }
}

/** The first issue per field wins: one message next to a field is enough to act on. */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const field = formatPath(issue.path);
    if (field in out) continue;
    const origin = 'origin' in issue ? String(issue.origin) : undefined;
    const error: FieldError = { kind: kindOf(issue.code, origin) };
    if (issue.code === 'too_small') error.limit = Number(issue.minimum);
    if (issue.code === 'too_big') error.limit = Number(issue.maximum);
    out[field] = error;
  }
  return out;
}

interface DetailIssue {
  field?: unknown;
  code?: unknown;
}

/**
 * Field errors from an engine failure, with `prefix` (e.g. 'patch.') cut from the field names so they
 * match the form's. Null when the failure is not about fields (show it as a notice instead).
 */
export function fromIpcError(error: Pick<IpcError, 'code' | 'details'>, prefix = ''): FieldErrors | null {
  if (error.code !== 'INVALID_ARGUMENT') return null;
  const fields = Array.isArray(error.details?.fields) ? (error.details.fields as unknown[]) : [];
  const issues = Array.isArray(error.details?.issues) ? (error.details.issues as DetailIssue[]) : [];
  const out: FieldErrors = {};
  for (const raw of fields) {
    if (typeof raw !== 'string') continue;
    const field = raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
    if (field in out) continue;
    const issue = issues.find((i) => i.field === raw);
    out[field] = { kind: kindOf(typeof issue?.code === 'string' ? issue.code : '') };
  }
  return Object.keys(out).length ? out : null;
}
