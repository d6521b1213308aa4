import { modelSettingsSchema, type ModelSettings } from '../../../domain/llm/settings';
import { fromZodIssues, type FieldErrors } from './field-errors';

/**
 * The model endpoint form as the inputs hold it: text as typed, numbers possibly blank (null), the
 * timeout in seconds (people think in seconds; the schema counts milliseconds).
 */
export interface ModelForm {
  provider: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  embeddingModel: string;
  timeoutSec: number | null;
  contextWindow: number | null;
  tokenRatio: number | null;
}

export type ModelFormField = keyof ModelForm;

export function toModelForm(settings: ModelSettings): ModelForm {
  return {
    provider: settings.provider,
    baseUrl: settings.baseUrl,
    model: settings.model,
    apiKey: settings.apiKey,
    embeddingModel: settings.embeddingModel,
    timeoutSec: settings.timeoutMs / 1000,
    contextWindow: settings.contextWindow,
    tokenRatio: settings.tokenRatio,
  };
}

export type ParsedModelForm = { ok: true; value: ModelSettings } | { ok: false; errors: FieldErrors };

/**
 * Validates with the same schema the store uses; errors are keyed by the form's own field names. Settings this
 * form does not show (name replacement, set in its own section) are kept from `base`.
 */
export function parseModelForm(form: ModelForm, base: Partial<ModelSettings> = {}): ParsedModelForm {
  const candidate = {
    pseudonymize: base.pseudonymize,
    personNames: base.personNames,
    provider: form.provider,
    baseUrl: form.baseUrl.trim(),
    model: form.model.trim(),
    // A key is used exactly as pasted, except for the line breaks and spaces a copy often drags along.
    apiKey: form.apiKey.trim(),
    embeddingModel: form.embeddingModel.trim(),
    timeoutMs: form.timeoutSec === null ? null : Math.round(form.timeoutSec * 1000),
    contextWindow: form.contextWindow,
    tokenRatio: form.tokenRatio,
  };
  const res = modelSettingsSchema.safeParse(candidate);
  if (res.success) return { ok: true, value: res.data };
  const errors: FieldErrors = {};
  for (const [field, error] of Object.entries(fromZodIssues(res.error.issues))) {
    if (field === 'timeoutMs') {
      errors.timeoutSec = error.limit === undefined ? error : { ...error, limit: error.limit / 1000 };
    } else {
      errors[field] = error;
    }
  }
  return { ok: false, errors };
}

/** Field-by-field equality of two flat records (forms, settings): "is there anything to save?". */
export function sameValues<T extends object>(a: T, b: T): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof T>;
  return [...keys].every((k) => Object.is(a[k], b[k]));
}
