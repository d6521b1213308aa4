/** Small display helpers of the inspector. */
import { formatDateTime } from '../../app/dates';
import { tDynamic } from '../../i18n/i18n.svelte';

export const shortHash = (hash: string) => hash.slice(0, 12);

export function formatTime(ms: number | null, locale: string): string | null {
  return ms === null ? null : formatDateTime(ms, locale);
}

/** The skill's display-name key (`write:skills.<id>.name`), as skill.list names it. */
export const skillNameKey = (skillId: string) => `write:skills.${skillId}.name`;

/** A skill's translated name; a custom skill without words shows its id. */
export function skillLabel(skillId: string): string {
  const key = skillNameKey(skillId);
  const text = tDynamic(key);
  return text === key ? skillId : text;
}

/** Copies text; false when the browser refuses (no permission, insecure context). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
