import { DEFAULT_SETTINGS } from '../settings';
import type { MemoryCandidate } from './types';
import type { Clause } from './extract-clauses';
import { enClauses, FOREIGN_VOICE, QUOTE_MARK, splitSentences, stripLeadIn, stripNonStatements, zhClauses } from './extract-clauses';
import { asSentence, explicitRequest, isStatement } from './extract-request';
import type { Draft, ExtractRule } from './extract-support';
import { INSTRUCTION_CONFIDENCE, note, STATED_CONFIDENCE } from './extract-support';
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
 *
 * One fact each (seed 000): a sentence stating several things in several clauses ("I'm vegetarian and my
 * sister is called Lena") gives one memory per clause, each its own complete sentence; a sentence stating
 * one thing keeps its whole wording ("I really enjoy long walks, especially in autumn"). What the user
 * asks outright to remember ("Remember that …", "别忘了…") is kept even when no rule reads it, as a note.
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
      for (const draft of sentenceFacts(sentence, pipeline)) {
        found.push(toCandidate(draft, { lang: pipeline.lang, maxContentLength }));
      }
    }
  }
  return lastPerKey(found);
}

/** A rule's finding with the text of the memory it becomes. */
interface Fact {
  draft: Draft;
  content: string;
}

function sentenceFacts(sentence: string, pipeline: Pipeline): Fact[] {
  const request = explicitRequest(sentence, pipeline.lang);
  const said = request ? request.body : sentence;
  const perClause = clauseDrafts(said, pipeline);
  const withFacts = perClause.filter((c) => c.drafts.length > 0);
  // One clause saying something: the whole sentence is its memory. Several: each clause is one.
  const whole = stripLeadIn(said, pipeline.lang);
  const facts = withFacts.flatMap((c) => {
    const base = withFacts.length > 1 ? c.text : whole;
    const each = perObject(base, c.drafts);
    return c.drafts.map((draft, i) => ({ draft, content: each[i] ?? base }));
  });
  if (request) {
    for (const f of facts) f.draft = { ...f.draft, confidence: Math.max(f.draft.confidence ?? STATED_CONFIDENCE, INSTRUCTION_CONFIDENCE) };
    // What the user asked to remember and no rule read stays in their words: the whole request when
    // nothing was read, else each further clause that states something about them.
    const rest = withFacts.length === 0 ? [whole] : perClause.filter((c) => c.drafts.length === 0 && !c.skipped).map((c) => c.text);
    for (const text of rest) {
      if (isStatement(text, pipeline.lang)) facts.push({ draft: note(asSentence(text, pipeline.lang)), content: text });
    }
  }
  return facts.map((f) => ({ ...f, content: asSentence(f.content, pipeline.lang) }));
}

/**
 * "I love hiking and swimming" → "I love hiking", "I love swimming": where one clause names several liked
 * objects, each memory's text names its own (the span from the first object to the last is replaced).
 */
function perObject(base: string, drafts: readonly Draft[]): (string | undefined)[] {
  const objects = drafts.map((d) => (d.value && typeof d.value === 'object' ? (d.value as Record<string, unknown>)['object'] : undefined));
  if (drafts.length < 2 || !objects.every((o): o is string => typeof o === 'string' && o !== '' && base.includes(o))) return [];
  const starts = objects.map((o) => base.indexOf(o));
  const from = Math.min(...starts);
  const to = Math.max(...objects.map((o, i) => starts[i]! + o.length));
  return objects.map((o) => `${base.slice(0, from)}${o}${base.slice(to)}`);
}

interface ClauseDrafts {
  text: string;
  drafts: Draft[];
  /** Someone else's words, a question or an empty clause: never a memory, not even when asked. */
  skipped: boolean;
}

function clauseDrafts(sentence: string, pipeline: Pipeline): ClauseDrafts[] {
  const hedged = pipeline.hedge.test(sentence);
  const out: ClauseDrafts[] = [];
  for (const clause of pipeline.clauses(sentence)) {
    const drafts: Draft[] = [];
    const skipped = clause.text === '' || clause.text.includes(QUOTE_MARK) || clause.reported || (clause.question && !clause.request);
    out.push({ text: clause.text, drafts, skipped });
    if (skipped) continue;
    // Hedged or hypothetical words are no statement of fact (asked to remember, they become a note).
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
  return out;
}

function toCandidate(fact: Fact, ctx: { lang: 'zh' | 'en'; maxContentLength: number }): MemoryCandidate {
  const { draft } = fact;
  const candidate: MemoryCandidate = {
    category: draft.category,
    key: draft.key,
    value: draft.value,
    content: clampText(fact.content, ctx.maxContentLength),
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
