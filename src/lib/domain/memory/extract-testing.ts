import { expect, it } from 'vitest';
import type { MemoryCandidate } from './types';
import { extractCandidates } from './extract-rules';

/** Test support for the zh/en extraction tables: one row per sentence, expected memories or none. */

export interface ExpectedMemory {
  key: string;
  value?: unknown;
  category?: MemoryCandidate['category'];
  retracts?: boolean;
}

/** A sentence and what must be stored; `[]` means nothing may be stored, `why` says why not. */
export type ExtractCase = { text: string; expect: ExpectedMemory[]; why?: string };

export const CREATE_SCENARIO = '001 Create long-term memory from user statement';

/**
 * A memory keeps the user's words: every word of its text (Latin words, Han characters) is in what they
 * said, but for the subject 我 a clause inherits ("是一名程序员" → "我是一名程序员") and the stop and
 * capital letter that make it a sentence.
 */
export function inUserWords(content: string, said: string): boolean {
  const words = (t: string) => t.normalize('NFKC').toLowerCase().match(/\p{Script=Han}|[\p{L}\p{N}'’]+/gu) ?? [];
  const heard = new Set(words(said));
  return words(content.replace(/…$/u, '')).every((w) => heard.has(w) || w === '我');
}

export function runExtractCases(cases: readonly ExtractCase[], lang: 'zh' | 'en'): void {
  const positives = cases.filter((c) => c.expect.length > 0);
  const negatives = cases.filter((c) => c.expect.length === 0);

  it.each(positives)(`${CREATE_SCENARIO} (${lang}): $text`, ({ text, expect: expected }) => {
    const got = extractCandidates(text);
    expect(got.map((c) => c.key).sort()).toEqual(expected.map((e) => e.key).sort());
    for (const e of expected) {
      const candidate = got.find((c) => c.key === e.key)!;
      const { retracts, ...rest } = e;
      expect(candidate).toMatchObject(rest);
      expect(candidate.retracts ?? false).toBe(retracts ?? false);
      // 001: a user-stated memory has source user_stated and confidence ≥ 0.9, in the user's words.
      expect(candidate.source).toBe('user_stated');
      expect(candidate.confidence).toBeGreaterThanOrEqual(0.9);
      expect(candidate.language).toBe(lang);
      expect(inUserWords(candidate.content, text), candidate.content).toBe(true);
    }
  });

  it.each(negatives)(`never stored (${lang}, $why): $text`, ({ text }) => {
    expect(extractCandidates(text)).toEqual([]);
  });
}
