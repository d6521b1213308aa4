/**
 * Deliver item 2 of issue 19: "a model phrases the summary when configured". What the model is asked for one
 * episode that is being compressed (003 压缩策略: ~200 tokens keeping the scene type, the skill, the feedback,
 * the key preference signals and the style features; dropping the candidates, the full input and the edit
 * history), and how its answer is accepted. The deterministic template (compress.ts) is both the model's
 * checklist — every fact it must keep is in it — and the fallback.
 */
import type { ChatMessage } from '../llm/types';
import { SUMMARY_MAX_CHARS } from './compress';
import { clipChars as clip } from '../text/clip';

/** What the model sees of the episode: the template's facts and short excerpts of the text, never all of it. */
export interface SummaryMaterial {
  /** The template summary (compress.ts): scene, skill, feedback, stated preferences, style numbers. */
  template: string;
  /** The passage the skill ran on, as the episode stored it (already a summary). */
  input: string;
  /** The text the user kept, if any. */
  kept: string;
}

/** Characters of each excerpt the model reads. */
export const EXCERPT_MAX_CHARS = 400;
/** ~200 tokens: the answer is capped like the template. */
export const SUMMARY_MAX_TOKENS = 260;


export function summaryMessages(m: SummaryMaterial): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You compress one memory of a writing assistant into a summary of at most about 200 tokens. Keep: the scene type, ' +
        'the skill, the feedback (what the user kept or rejected, edits, anything they said), the key preference signals and ' +
        'the style features. Leave out the candidate texts, the full input and the edit history. Use only the facts given. ' +
        'Answer with the summary text only, in the language of the excerpts.',
    },
    {
      role: 'user',
      content: `Facts (keep all of them):\n${m.template}\n\nExcerpt of the passage:\n${clip(m.input, EXCERPT_MAX_CHARS)}\n\nExcerpt of what the user kept:\n${clip(m.kept, EXCERPT_MAX_CHARS) || '(nothing)'}`,
    },
  ];
}

/** The model's answer as the stored summary, or null when it is unusable (empty). */
export function acceptedSummary(answer: string): string | null {
  const text = answer.replace(/^```[a-z]*\n?|```$/g, '').trim();
  if (text === '') return null;
  return clip(text, SUMMARY_MAX_CHARS);
}
