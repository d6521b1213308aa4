import type { MemoryCategory } from './types';
import { familyKey, likeKey, SLOTS, type KeyFamily } from './keys';
import { lexiconTags, lookupObject } from './lexicon';

/**
 * Building blocks for the zh/en rule tables: what a rule produces (a Draft), the builders that give
 * each key family its value shape (keys.ts), and the object cleaners shared by the rules.
 */

/** A rule's finding; the engine adds content, source, language and profile hints. */
export interface Draft {
  category: MemoryCategory;
  key: string;
  value: unknown;
  polarity?: 'positive' | 'negative';
  retracts?: boolean;
  confidence?: number;
  tags: string[];
}

export interface RuleContext {
  /** The whole sentence the clause came from (for lead-ins such as "以后" / "from now on"). */
  sentence: string;
  clause: string;
}

export interface ExtractRule {
  id: string;
  /**
   * `statement`: something about the user ("我叫小明"); skipped in hedged or hypothetical sentences.
   * `instruction`: how to answer from now on ("以后请用中文回答"); may be phrased as a polite question.
   */
  kind: 'statement' | 'instruction';
  re: RegExp;
  build(m: RegExpExecArray, ctx: RuleContext): Draft | Draft[] | null;
}

/** What the user says outright; names and standing instructions are the least ambiguous. */
export const STATED_CONFIDENCE = 0.9;
export const INSTRUCTION_CONFIDENCE = 0.95;

/** Both languages' words for a slot, so "what's my name" finds "叫我小明" through its tags. */
const SLOT_TAGS: Readonly<Record<string, readonly string[]>> = {
  'fact.name': ['name', '名字'],
  'fact.occupation': ['job', 'occupation', '职业', '工作'],
  'fact.employer': ['employer', 'company', '公司', '工作'],
  'fact.location': ['location', 'city', '住', '城市'],
  'fact.work_location': ['work', 'city', '工作', '城市'],
  'fact.hometown': ['hometown', 'from', '家乡', '老家'],
  'fact.age': ['age', '年龄'],
  'fact.native_language': ['language', 'native', '母语', '语言'],
  'fact.diet': ['diet', 'food', '饮食'],
  'fact.industry': ['industry', 'work', '行业', '工作'],
  'preference.reply.language': ['reply', 'language', '回答', '语言'],
  'preference.reply.length': ['reply', 'style', '回答', '风格'],
  'preference.reply.emoji': ['reply', 'emoji', '表情'],
  'preference.reply.tone': ['reply', 'tone', '语气'],
  'preference.reply.format': ['reply', 'format', '格式'],
};

export function slot(key: string, raw: unknown, opts: { retracts?: boolean; confidence?: number } = {}): Draft {
  const spec = SLOTS[key];
  if (!spec) throw new Error(`unknown slot key ${key}`);
  const category: MemoryCategory = key.startsWith('fact.') ? 'fact' : 'preference';
  const draft: Draft = {
    category,
    key,
    value: raw === null ? null : { [spec.field]: raw },
    tags: [...(SLOT_TAGS[key] ?? [])],
  };
  if (raw === null) Object.assign(draft, { retracts: true, polarity: 'negative' as const });
  else if (opts.retracts) draft.retracts = true;
  if (opts.confidence !== undefined) draft.confidence = opts.confidence;
  return draft;
}

export function like(object: string, stance: 'like' | 'dislike', retracts = false): Draft {
  const { key, domain } = likeKey(stripLightVerb(object));
  const entry = lookupObject(stripLightVerb(object));
  const draft: Draft = {
    category: 'preference',
    key,
    value: { object, stance },
    polarity: stance === 'like' ? 'positive' : 'negative',
    tags: entry ? lexiconTags(entry) : [domain, object],
  };
  if (retracts) draft.retracts = true;
  return draft;
}

export function family(fam: KeyFamily, text: string, value: Record<string, unknown>): Draft {
  const category: MemoryCategory = fam.startsWith('fact.') ? 'fact' : fam.startsWith('pattern.') ? 'pattern' : 'preference';
  const entry = fam === 'preference.instruction' ? null : lookupObject(text);
  const tags = entry ? lexiconTags(entry) : [fam.split('.')[1]!];
  return { category, key: familyKey(fam, text), value, tags };
}

/** "My sister is called Lena" / "我妹妹叫莉娜": who someone close to the user is, by what they call them. */
export function relation(rel: string, name: string): Draft {
  const relationText = rel.trim();
  return {
    category: 'fact',
    key: familyKey('fact.relation', relationText),
    value: { relation: relationText, name: name.trim() },
    tags: ['family', 'name', '家人', '名字', relationText, name.trim()],
    confidence: INSTRUCTION_CONFIDENCE,
  };
}

/**
 * What the user asked outright to remember ("Remember that my flight is on Friday", "记住：周五交报告")
 * when no rule reads it: kept as a note in their words.
 */
export function note(text: string): Draft {
  return { category: 'fact', key: familyKey('fact.note', text), value: { note: text }, tags: ['note', '备忘'], confidence: INSTRUCTION_CONFIDENCE };
}

export function instruction(text: string): Draft {
  return { ...family('preference.instruction', text, { instruction: text }), confidence: INSTRUCTION_CONFIDENCE };
}

/** "喝咖啡" → "咖啡", "drinking coffee" → "coffee": the verb says nothing about what is liked. */
export function stripLightVerb(object: string): string {
  return object
    .replace(/^(?:喝|吃|用|看|听|玩|打|去|做|写|穿|弹|学)(?=\p{Script=Han}{2,})/u, '')
    .replace(/^(?:drinking|eating|using|watching|listening to|playing|reading|doing|going|to drink|to eat|to use|to watch|to listen to|to play|to read|to go|to)\s+/iu, '');
}

const ZH_TRAILING = /(?:一点|一些|得很|极了|死了|得要命|了|啦|的|呀|啊|哦|喔|哈|呢|嘛|吧|[~～!！。.…\s])+$/u;
const ZH_DEICTIC = /^(?:这|那|它|你|他|她|此|该|其|的|什么|哪|谁|怎么|上了)/u;
/**
 * Objects that point into the conversation or at no one in particular: ordinals and positions
 * ("第二个", "最后一个", "上面那个", "前者"), and indefinites ("一个人", "某本书"). Liking them says
 * nothing lasting about the user.
 */
const ZH_VAGUE = /^(?:第[一二三四五六七八九十百\d]+|最后|最前|[上下前后](?:面|边|一个|一种|一条|者)|[一某](?:个|位|种|款|部|本|首|只|件|些|样)|有个|有人|别人|人家)/u;

/** A liked/disliked object from a Chinese clause; null when it points at the chat ("这个回答", "你"). */
export function cleanZhObject(raw: string): string | null {
  if (ZH_VAGUE.test(raw.replace(/^(?:上了|死了)/u, ''))) return null;
  const text = raw.replace(/^(?:上了|上|死了|死)(?=\p{Script=Han}{2,})/u, '').replace(ZH_TRAILING, '').trim();
  if (ZH_VAGUE.test(text)) return null;
  if (text === '' || ZH_DEICTIC.test(text) || /你|您/u.test(text) || Array.from(text).length > 14) return null;
  return text;
}

/** Splits "猫和狗" / "tea and coffee" into objects; keeps phrases like "和朋友爬山" whole. */
export function splitObjects(text: string, lang: 'zh' | 'en'): string[] {
  const parts = lang === 'zh' ? text.split(/以及|和|、/u) : text.split(/\s*(?:\band\b|\bor\b|&|\/)\s*/iu);
  const clean = parts.map((p) => p.trim());
  return clean.every((p) => p !== '') ? clean : [text];
}

const EN_TRAILING =
  /\s+(?:a lot|a bunch|very much|so much|too|as well|though|anymore|any more|now|these days|nowadays|lately|either|at all|in general|generally|really|more|the most|best|most)$/iu;
const EN_CUT = /\s+(?:over|more than|rather than|better than|instead of|if|when|because|since|unless|while|whereas|but|which|that you)\s.*$/iu;
const EN_DEICTIC =
  /^(?:it|it's|its|this|that|these|those|them|him|her|what|which|whatever|everything|anything|something|nothing|all|both|either|neither|one|when|whenever|where|how|why|if|because|being|be|the (?:idea|answer|response|reply|suggestion|first|second|last|other|one|way))\b/iu;

/** A liked/disliked object from an English clause; null for "it", "how you …", anything about "you", long phrases. */
export function cleanEnObject(raw: string): string | null {
  let text = raw.replace(/[.!?…,;:]+$/u, '').replace(EN_CUT, '').trim();
  for (let prev = ''; prev !== text; ) {
    prev = text;
    text = text.replace(EN_TRAILING, '').trim();
  }
  if (text === '' || EN_DEICTIC.test(text) || /\b(?:you|your|yours|you're)\b/iu.test(text) || text.split(/\s+/u).length > 6) return null;
  return text;
}
