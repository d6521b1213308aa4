/**
 * What a reply must not show (issue 15): small models sometimes copy the prompt's scaffolding into their
 * answer — a section heading ("## Relevant memories", or an older prompt's "## L4 · retrieved · 相关记忆")
 * or an item citation ("[memory:32ddae99-…]"). The prompt no longer carries citations and asks the model
 * not to repeat its headings; this removes what slips through anyway, and nothing else.
 */
import { PROMPT_WORDS } from './prompt-language';

const HEADINGS = new Set(
  Object.values(PROMPT_WORDS).flatMap((w) => [...Object.values(w.headings)]).map((h) => h.trim()),
);
/** A heading line of an older prompt: `## L4 · retrieved · 相关记忆`. */
const LAYER_HEADING = /^#{1,6}\s*L[0-5]\s*·.*$/u;
/** An item citation: `[memory:…]`, `[recall:turn:6]`, `[session:…]`, `[summary:…]`, `[turn:12]`, `[preference:…]`. */
const CITATION = /\s?\[(?:memory|recall|session|summary|turn|preference|episode|compact|profile):[^\]\s]{1,80}\]/gu;

export function stripScaffolding(reply: string): string {
  const lines = reply.split('\n').filter((line) => {
    const bare = line.trim();
    return !HEADINGS.has(bare) && !LAYER_HEADING.test(bare);
  });
  return lines.join('\n').replace(CITATION, '').replace(/^\n+/u, '');
}
