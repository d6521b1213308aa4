import { modelSettingsSchema, type ModelSettings } from '../../../domain/llm/settings';
import type { FieldError } from './field-errors';

/** The name list as the textarea holds it: one name per line. */
export const namesToText = (names: readonly string[]): string => names.join('\n');

/** Lines → names: trimmed, blank lines dropped, each name once (first spelling kept). */
export function textToNames(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const name = line.trim();
    const key = name.toLocaleLowerCase();
    if (name && !seen.has(key)) {
      seen.add(key);
      names.push(name);
    }
  }
  return names;
}

export type ParsedPrivacy = { ok: true; value: ModelSettings } | { ok: false; error: FieldError & { line?: number } };

/** The stored settings with this section's two fields replaced, validated by the same schema. */
export function parsePrivacy(current: ModelSettings, form: { pseudonymize: boolean; namesText: string }): ParsedPrivacy {
  const names = textToNames(form.namesText);
  const res = modelSettingsSchema.safeParse({ ...current, pseudonymize: form.pseudonymize, personNames: names });
  if (res.success) return { ok: true, value: res.data };
  const issue = res.error.issues.find((i) => i.path[0] === 'personNames');
  if (issue?.path.length === 2) return { ok: false, error: { kind: 'tooLong', limit: 100, line: Number(issue.path[1]) + 1 } };
  return { ok: false, error: { kind: 'tooBig', limit: 500 } };
}
