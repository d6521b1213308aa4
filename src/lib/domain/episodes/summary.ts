import { splitSentences } from '../text/sentences';

/** 003 `inputContext` ("输入上下文摘要"): the passage itself when short, else its first and last sentences. */
export const INPUT_SUMMARY_CHARS = 200;

const clip = (cps: string[], n: number) => (cps.length > n ? `${cps.slice(0, n - 1).join('')}…` : cps.join(''));

export function summarizePassage(text: string, maxChars = INPUT_SUMMARY_CHARS): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  const cps = Array.from(flat);
  if (cps.length <= maxChars) return flat;
  const sentences = splitSentences(flat);
  const first = sentences[0] ?? flat;
  const last = sentences.at(-1) ?? '';
  const half = Math.floor((maxChars - 3) / 2);
  if (sentences.length < 2) return clip(cps, maxChars);
  return `${clip(Array.from(first), half)} … ${clip(Array.from(last), half)}`;
}

/** A short excerpt for lists and prompts. */
export function excerpt(text: string, maxChars: number): string {
  return clip(Array.from(text.replace(/\s+/gu, ' ').trim()), maxChars);
}

/** The text an episode stands for: what the user kept, else the chosen candidate, else its compressed summary. */
export function keptText(e: { candidates: readonly string[]; selectedIndex: number; finalText: string | null; summary: string | null }): string {
  return e.finalText ?? e.candidates[e.selectedIndex] ?? e.summary ?? '';
}
