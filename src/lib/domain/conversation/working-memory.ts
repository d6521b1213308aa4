import { extractKeywords } from '../text/keywords';
import { querySymbols } from '../text/symbols';
import { detectEmotion } from './emotion';
import type { Emotion, WorkingMemory } from './types';

/** Seed 001: working memory is removed after 30 minutes without activity. */
export const WORKING_MEMORY_IDLE_MS = 30 * 60_000;
const MAX_VARIABLES = 24;

export function startWorkingMemory(sessionId: string, now: number): WorkingMemory {
  return { sessionId, currentTopic: null, contextVariables: {}, turnCount: 0, lastEmotion: null, createdAt: now, updatedAt: now };
}

/**
 * Seed 001 "Working memory update on each turn", heuristic path: turn_count + 1, updated_at = now,
 * topic and variables from the user's words, emotion from a lexicon. `recentUserTexts` are the
 * session's latest user messages, newest last (including this one).
 */
export function applyUserTurn(
  wm: WorkingMemory,
  turn: { text: string; now: number; recentUserTexts: readonly string[] },
): WorkingMemory {
  const variables = { ...wm.contextVariables, ...extractContextVariables(turn.text) };
  const names = Object.keys(variables);
  // Keep the newest variables when there are too many (insertion order is update order).
  for (const name of names.slice(0, Math.max(0, names.length - MAX_VARIABLES))) delete variables[name];
  return {
    ...wm,
    turnCount: wm.turnCount + 1,
    updatedAt: turn.now,
    currentTopic: heuristicTopic(turn.recentUserTexts) ?? wm.currentTopic,
    contextVariables: variables,
    lastEmotion: detectEmotion(turn.text),
  };
}

/** The model's analysis of a turn (when there is a model) replaces the heuristic topic/variables. */
export function applyAnalysis(
  wm: WorkingMemory,
  analysis: { currentTopic?: string | null; contextVariables?: Record<string, string>; lastEmotion?: Emotion | null; now: number },
): WorkingMemory {
  return {
    ...wm,
    updatedAt: analysis.now,
    currentTopic: analysis.currentTopic === undefined ? wm.currentTopic : analysis.currentTopic,
    contextVariables: analysis.contextVariables ? { ...wm.contextVariables, ...analysis.contextVariables } : wm.contextVariables,
    lastEmotion: analysis.lastEmotion === undefined ? wm.lastEmotion : analysis.lastEmotion,
  };
}

export function isIdle(wm: WorkingMemory, now: number, idleMs = WORKING_MEMORY_IDLE_MS): boolean {
  return now - wm.updatedAt > idleMs;
}

/**
 * Words that carry no topic in a chat turn: discourse openers ("By the way, …" made the topic "way
 * sister") and the verbs that only name or remind ("is called", "remember that", "叫", "别忘了"). They
 * are dropped from the topic only; search keeps its own stop list.
 */
const DISCOURSE = /\b(?:by the way|btw|anyway|anyhow|just so you know|for the record|fyi|remember that|don'?t forget(?: that)?|keep in mind(?: that)?|i mean|you know)\b|顺便说一下|顺便说|顺便提一下|对了|话说|另外|记住|别忘了|不要忘了/giu;
const TOPIC_LIGHT = new Set(['called', 'named', 'name', 'names', 'call', 'calls', 'remember', 'forget', 'thing', 'things', 'stuff', 'way', 'lot', 'bit', 'kind', 'sort', '叫', '叫做', '名字', '记得']);

/** A lone Han character (样, 的…) is a fragment the segmenter left, never a topic by itself. */
const LONE_HAN = /^\p{Script=Han}$/u;
const HAN_END = /\p{Script=Han}$/u;
const HAN_START = /^\p{Script=Han}/u;

/**
 * The topic: a code symbol if the latest message names one, else the keywords that recur most in the
 * last three user messages (newer messages weigh more). Chinese compounds the segmenter splits (机器|学习,
 * 截止|日期) are put back together when the text has them side by side. Null when nothing stands out.
 */
export function heuristicTopic(recentUserTexts: readonly string[]): string | null {
  const latest = recentUserTexts.at(-1) ?? '';
  const symbol = querySymbols(latest)[0];
  if (symbol) return symbol;
  const weights = new Map<string, { word: string; weight: number }>();
  const window = recentUserTexts.slice(-3);
  window.forEach((text, i) => {
    const recency = (i + 1) / window.length;
    for (const word of extractKeywords(text.replace(DISCOURSE, ' '), { max: 8 })) {
      const key = word.toLowerCase();
      if (TOPIC_LIGHT.has(key)) continue;
      const entry = weights.get(key) ?? { word, weight: 0 };
      entry.weight += recency;
      weights.set(key, entry);
    }
  });
  const all = [...weights.values()].sort((a, b) => b.weight - a.weight).map((r) => r.word);
  const ranked = all.filter((w) => !LONE_HAN.test(w));
  const [first] = ranked;
  if (!first) return null;
  // Partners may be lone characters (数据|库): joined, they are a word again — grown while the text
  // has the longer form (数据库|迁移 → 数据库迁移).
  let partners = all.filter((w) => w !== first).slice(0, 4);
  let compound: string | null = null;
  for (let grown = joinedCompound(first, partners, window); grown; grown = joinedCompound(grown, partners, window)) {
    const word = grown;
    partners = partners.filter((p) => !word.includes(p));
    compound = word;
  }
  return compound ?? ranked.slice(0, 2).join(' ');
}

/**
 * `word` and one of `others` written together as one Chinese word in `texts` (either order): the form
 * the texts use most often, or null when none is written that way.
 */
function joinedCompound(word: string, others: readonly string[], texts: readonly string[]): string | null {
  let best: { text: string; count: number } | null = null;
  for (const other of others) {
    for (const [a, b] of [[word, other], [other, word]] as const) {
      if (!HAN_END.test(a) || !HAN_START.test(b)) continue;
      const joined = `${a}${b}`;
      const count = texts.reduce((n, t) => n + t.split(joined).length - 1, 0);
      if (count > 0 && (!best || count > best.count)) best = { text: joined, count };
    }
  }
  return best?.text ?? null;
}

const VARIABLE_PATTERNS: readonly RegExp[] = [
  // `name = value` / `name: value` in prose or code (short values only)
  /(?:^|[\s`(])([A-Za-z_][\w.]{1,40})\s*[:=]\s*["'`]?([^\s"'`,;，。]{1,60})/g,
  // English: "my X is Y", "the X is set to Y", "using X version Y"
  /\b(?:my|our|the)\s+([a-z][a-z ]{1,30}?)\s+(?:is|are|is set to)\s+([^\s,.;]{1,60})/gi,
  // Chinese: "X 是 Y" for settings-like nouns, "用的是 Y"
  /(项目|版本|框架|语言|数据库|截止日期|期限|目标|预算|环境|系统)(?:名)?(?:是|为|叫|用)\s*([^\s，。；,;]{1,40})/g,
];

/** Short "name → value" facts the conversation sets up (temporary context variables, seed 001). */
export function extractContextVariables(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pattern of VARIABLE_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const name = m[1]?.trim();
      const value = m[2]?.trim();
      if (name && value && name.length <= 40 && !/^https?$/i.test(name)) out[name] = value;
    }
  }
  return out;
}

/** What is worth archiving into long-term memory when the working memory expires. */
export function archiveCandidates(wm: WorkingMemory): { name: string; value: string }[] {
  const items = Object.entries(wm.contextVariables).map(([name, value]) => ({ name, value }));
  // A session that lasted a few turns on one topic leaves that topic as a pattern worth keeping.
  if (wm.currentTopic && wm.turnCount >= 3) items.push({ name: 'topic', value: wm.currentTopic });
  return items;
}
