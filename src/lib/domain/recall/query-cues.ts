/**
 * What a recall question says beyond its topic words (issue 8 "question-type cues"), zh and en:
 *
 *   "what did I say about …", "我的猫叫什么"        → role cue 'user'      (facts about me are in my turns)
 *   "what did you recommend …", "你上次推荐的…"      → role cue 'assistant' (what you said is in your turns)
 *   "what am I currently …", "最近", "latest"        → recency cue          (newer beats older)
 *   "What did Priya study?"                          → name candidates      (resolved to a speaker in the engine)
 *   "What did I plant two weeks ago?"                → "two" is time, not topic (withoutTimeWords)
 *
 * Pure functions of the text; the engine decides what a cue does.
 */
import { isStopWord } from '../text/keywords';
import { scanTokens, segmentWords } from '../text/segment';

export type RoleCue = 'user' | 'assistant' | null;

/** "you said/told/recommended …", "你说/推荐/建议 …": the assistant's words are asked for. */
const ASSISTANT_EN =
  /\byou\s+(?:have\s+|had\s+)?(?:just\s+)?(?:said|told|recommended|suggested|mentioned|gave|shared|provided|listed|wrote|proposed|explained|described|offered|advised|answered|replied|named|showed|sent)\b|\byour\s+(?:answer|reply|response|suggestion|recommendation|advice|list|explanation)\b/iu;
const ASSISTANT_ZH = /你(?:之前|上次|刚才|刚刚|曾经)?(?:说|讲|推荐|建议|提到|提过|给|列|写|回答|解释|介绍|告诉)/u;
/** First person: I, me, my, mine, myself, I'm …; 我 (we/我们 is shared, not a cue). */
const USER_EN = /\b(?:i|me|my|mine|myself|i'm|i've|i'd|i'll)\b/iu;
const USER_ZH = /我(?!们)/u;

export function roleCue(query: string): RoleCue {
  const text = query.normalize('NFKC').replace(/’/gu, "'");
  if (ASSISTANT_EN.test(text) || ASSISTANT_ZH.test(text)) return 'assistant';
  if (USER_EN.test(text) || USER_ZH.test(text)) return 'user';
  return null;
}

const RECENT_EN =
  /\b(?:recent(?:ly)?|latest|lately|currently|current|nowadays|these days|right now|most recent|newest|up to date|so far|still|anymore|now)\b/iu;
const RECENT_ZH = /最近|最新|刚才|刚刚|现在|目前|如今|近来|这几天|这阵子|眼下|还在|仍然/u;

/** The question asks about the present state of things, where newer turns override older ones. */
export function recencyCue(query: string): boolean {
  const text = query.normalize('NFKC');
  return RECENT_EN.test(text) || RECENT_ZH.test(text);
}

const CAPITALISED = /^\p{Lu}[\p{Ll}\p{M}'’-]*\p{Ll}$/u;
const NOT_NAMES = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november',
  'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'christmas', 'easter',
  'halloween', 'thanksgiving', 'god', 'english', 'chinese',
  // titles: "Dr. Smith" names Smith, and "Thanks, Dr." says nothing about who is who
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'madam', 'mom', 'dad', 'mum',
]);

/**
 * Capitalised words of three or more letters that may name a person ("Priya", "Bea"), possessive stripped. Sentence-initial words count
 * too (a question rarely starts with a content word in lower case), unless they are stop words. The engine keeps
 * only those it can resolve to a participant (see `addressedNames`).
 */
export function nameCandidates(query: string): string[] {
  const out = new Map<string, string>();
  for (const t of scanTokens(query)) {
    if (t.cjk) continue;
    const word = t.text.replace(/['’]s$/u, '');
    if ([...word].length < 3 || !CAPITALISED.test(word)) continue;
    const key = word.toLowerCase();
    if (isStopWord(key) || NOT_NAMES.has(key)) continue;
    if (!out.has(key)) out.set(key, word);
  }
  return [...out.values()];
}

/**
 * The keywords left when the words of the question's resolved time expressions are taken out: "two weeks ago" is
 * matched as a time range (time-fit.ts), so "two" must not also be searched as text ("How many bikes did I
 * service in March?" searches bikes and service, in March). Case-insensitive; order kept.
 */
export function withoutTimeWords(keywords: readonly string[], expressions: readonly string[]): string[] {
  if (expressions.length === 0) return [...keywords];
  const timeWords = new Set(expressions.flatMap((e) => segmentWords(e).map((w) => w.toLowerCase())));
  return keywords.filter((k) => !timeWords.has(k.toLowerCase()));
}
