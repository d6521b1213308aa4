import { splitSentences } from '../text/sentences';
import { clipChars, clipFlat } from '../text/clip';

/** 003 `inputContext` ("输入上下文摘要"): the passage itself when short, else its first and last sentences. */
export const INPUT_SUMMARY_CHARS = 200;


export function summarizePassage(text: string, maxChars = INPUT_SUMMARY_CHARS): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  if (Array.from(flat).length <= maxChars) return flat;
  const sentences = splitSentences(flat);
  const first = sentences[0] ?? flat;
  const last = sentences.at(-1) ?? '';
  const half = Math.floor((maxChars - 3) / 2);
  if (sentences.length < 2) return clipChars(flat, maxChars);
  return `${clipChars(first, half)} … ${clipChars(last, half)}`;
}

/** A short excerpt for lists and prompts. */
export function excerpt(text: string, maxChars: number): string {
  return clipFlat(text, maxChars);
}

/** The text an episode stands for: what the user kept, else the chosen candidate, else its compressed summary. */
export function keptText(e: { candidates: readonly string[]; selectedIndex: number; finalText: string | null; summary: string | null }): string {
  return e.finalText ?? e.candidates[e.selectedIndex] ?? e.summary ?? '';
}
