import type { IpcError } from '../../../domain/errors';

/**
 * Validation messages keyed by form field (`content`, `value`, `tags`, `confidence`, `rule`…), as data the
 * form translates. Two sources share the shape: the form's own checks before sending, and the engine's
 * INVALID_ARGUMENT, whose `details.fields` name the field (ARCHITECTURE §8).
 */
export type FormErrorKind = 'required' | 'json' | 'jsonTooBig' | 'tooLong' | 'tooMany' | 'range' | 'invalid';

export interface FormError {
  kind: FormErrorKind;
  /** The bound that was crossed, when known. */
  limit?: number;
  /** For 'invalid' from the engine: its message (names the field, never contains user text). */
  message?: string;
}

export type FormErrors = Record<string, FormError>;

interface DetailIssue {
  field?: unknown;
  code?: unknown;
  message?: unknown;
}

/** `tags[3]` → `tags`, `value.a` → `value`: a form shows one message per control. */
function controlOf(field: string): string {
  return field.split(/[.[]/u, 1)[0] ?? field;
}

/** `field` is the engine's name (`tags` = the list, `tags[3]` = one tag); `control` the form's. */
function kindOf(field: string, control: string, code: string): FormErrorKind {
  if (control === 'value' && code === 'custom') return 'jsonTooBig';
  if (code === 'too_big') return field === 'tags' ? 'tooMany' : control === 'confidence' ? 'range' : 'tooLong';
  if (code === 'too_small') return control === 'confidence' ? 'range' : 'required';
  return 'invalid';
}

/** The field errors in an engine failure; null when it is not about fields (show it as a notice instead). */
export function formErrorsFromIpc(error: Pick<IpcError, 'code' | 'message' | 'details'>): FormErrors | null {
  if (error.code !== 'INVALID_ARGUMENT') return null;
  const fields = Array.isArray(error.details?.fields) ? (error.details.fields as unknown[]) : [];
  const issues = Array.isArray(error.details?.issues) ? (error.details.issues as DetailIssue[]) : [];
  const out: FormErrors = {};
  for (const raw of fields) {
    if (typeof raw !== 'string') continue;
    const control = controlOf(raw);
    if (control in out) continue;
    const issue = issues.find((i) => i.field === raw);
    const kind = kindOf(raw, control, typeof issue?.code === 'string' ? issue.code : '');
    out[control] = kind === 'invalid' ? { kind, message: error.message } : { kind };
  }
  return Object.keys(out).length ? out : null;
}
