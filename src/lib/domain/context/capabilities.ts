/**
 * Masking instead of deleting (seed 004 "行为控制使用 masking 而非删除"): L0 always describes every
 * capability; a skill run where one is unavailable (no project, no selection, memory unreadable) says
 * so in one fixed flag line at the start of the dynamic part. L0 — and the stable prefix hash — stay
 * the same. The line is in the prompt's language and sits after the cached prefix.
 */
import { PROMPT_WORDS, type PromptLanguage } from './prompt-language';
import type { Capability } from './types';

export const CAPABILITIES: readonly Capability[] = ['project', 'selection', 'memory'];

export function flagLine(flags: Record<Capability, boolean>, lang: PromptLanguage): string {
  const w = PROMPT_WORDS[lang].capabilities;
  const parts = CAPABILITIES.map((c) => `${w.names[c]}${w.colon}${flags[c] ? w.on : w.off}`);
  return `${w.label} ${parts.join(w.sep)}`;
}
