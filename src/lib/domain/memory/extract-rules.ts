import { DEFAULT_SETTINGS } from '../settings';
import type { MemoryCandidate } from './types';
import type { Clause } from './extract-clauses';
import { enClauses, FOREIGN_VOICE, QUOTE_MARK, splitSentences, stripNonStatements, zhClauses } from './extract-clauses';
import type { Draft, ExtractRule } from './extract-support';
import { STATED_CONFIDENCE } from './extract-support';
import { EN_RULES } from './extract-patterns-en';
import { ZH_RULES } from './extract-patterns-zh';
import { profileHintsFor } from './profile-slots';
import { clampText, codePointLength, hasHan } from './text-norm';

/**
 * Rule-based extraction (ARCHITECTURE §7 "heuristic provider"): stated preferences and facts in Chinese
 * and English, for when no model is configured. Only the user's own message is ever passed in.
 *
 * Conservative by design: a missed memory can be added by hand, a wrong one misleads every later
 * answer. So nothing is taken from questions, hypotheticals, hedged sentences, other people's words
 * (quoted or reported: "他说：…", "My friend said: …"), anything about the system prompt or
 * instructions, pasted code or transcripts, or long pasted text. Memories keep the user's words and language.
 */

/** Longer messages are pasted material (articles, logs), not statements about the user. */
export const MAX_EXTRACT_CHARS = 2000;
/** A statement about oneself is short; longer sentences are narrative and too ambiguous. */
export const MAX_SENTENCE_CHARS = 200;

const HEDGE_ZH = /(?<!尽)可能|也许|大概|好像|或许|似乎|不确定|不知道|说不定|估计|应该是|不一定|吧[。！!？?~～…]*$|吧[，,]/u;
const HEDGE_EN =
  /\b(?:maybe|perhaps|probably|possibly|might|not sure|unsure|i think|i guess|i suppose|kind of|kinda|sort of|i believe|i feel like|seems?|apparently|not certain)\b/iu;

interface Pipeline {
  lang: 'zh' | 'en';
  applies: (sentence: string) => boolean;
  clauses: (sentence: string) => Clause[];
  hedge: RegExp;
  rules: readonly ExtractRule[];
}

const PIPELINES: readonly Pipeline[] = [
  { lang: 'zh', applies: hasHan, clauses: zhClauses, hedge: HEDGE_ZH, rules: ZH_RULES },
  { lang: 'en', applies: (s) => /[A-Za-z]/u.test(s), clauses: enClauses, hedge: HEDGE_EN, rules: EN_RULES },
];

export function extractCandidates(userText: string, opts: { maxContentLength?: number } = {}): MemoryCandidate[] {
  const maxContentLength = opts.maxContentLength ?? DEFAULT_SETTINGS['memory.atomic_content_max_length'];
  const text = stripNonStatements(userText);
  if (codePointLength(text) > MAX_EXTRACT_CHARS) return [];
  const found: MemoryCandidate[] = [];
  for (const sentence of splitSentences(text)) {
    if (codePointLength(sentence) > MAX_SENTENCE_CHARS || FOREIGN_VOICE.test(sentence)) continue;
    for (const pipeline of PIPELINES) {
      if (!pipeline.applies(sentence)) continue;
      for (const draft of sentenceDrafts(sentence, pipeline)) {
        found.push(toCandidate(draft, { sentence, lang: pipeline.lang, maxContentLength }));
      }
    }
  }
  return lastPerKey(found);
}

function sentenceDrafts(sentence: string, pipeline: Pipeline): Draft[] {
  const hedged = pipeline.hedge.test(sentence);
  const drafts: Draft[] = [];
  for (const clause of pipeline.clauses(sentence)) {
    if (clause.text === '' || clause.text.includes(QUOTE_MARK) || clause.reported) continue;
    if (clause.question && !clause.request) continue;
    const statementsAllowed = !clause.request && !hedged && !clause.hypothetical;
    for (const rule of pipeline.rules) {
      if (rule.kind === 'statement' && !statementsAllowed) continue;
      const m = rule.re.exec(clause.text);
      if (!m) continue;
      const built = rule.build(m, { sentence, clause: clause.text });
      if (built === null) continue;
      drafts.push(...(Array.isArray(built) ? built : [built]));
      break;
    }
  }
  return drafts;
}

function toCandidate(
  draft: Draft,
  ctx: { sentence: string; lang: 'zh' | 'en'; maxContentLength: number },
): MemoryCandidate {
  const candidate: MemoryCandidate = {
    category: draft.category,
    key: draft.key,
    value: draft.value,
    content: clampText(ctx.sentence, ctx.maxContentLength),
    confidence: draft.confidence ?? STATED_CONFIDENCE,
    source: 'user_stated',
    tags: [...new Set(draft.tags.filter((t) => t !== ''))],
    language: ctx.lang,
  };
  if (draft.polarity) candidate.polarity = draft.polarity;
  if (draft.retracts) candidate.retracts = true;
  const profile = profileHintsFor(candidate);
  if (profile.length > 0) candidate.profile = profile;
  return candidate;
}

/** One candidate per key: what the user said last wins ("I live in Paris. Now I live in Berlin."). */
function lastPerKey(candidates: readonly MemoryCandidate[]): MemoryCandidate[] {
  const byKey = new Map<string, MemoryCandidate>();
  for (const c of candidates) {
    byKey.delete(c.key);
    byKey.set(c.key, c);
  }
  return [...byKey.values()];
}
