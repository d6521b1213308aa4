/**
 * Seed 003 `sceneType` ("场景类型：对白、动作、描写等"): what kind of passage a skill ran on, for Chinese
 * and English prose. The heuristic default — with a model configured, the jobs worker may ask the model
 * instead (scene-classify job) and records which of the two decided.
 *
 *   text ─▶ quoted share (dialogue) + cue words per kind, per 100 units (CJK char = 1, Latin word = 2)
 *        ─▶ + sentence shape (short, exclaimed lines lean to action; unquoted questions to introspection)
 *        ─▶ the best kind when it clears MIN_SCORE and leads the runner-up, else `narration`
 *
 * Every score is returned, so the inspector and tests can see why a passage got its type.
 */
import { splitSentences } from '../text/sentences';

export const SCENE_TYPES = ['dialogue', 'action', 'description', 'introspection', 'exposition', 'narration'] as const;
export type SceneType = (typeof SCENE_TYPES)[number];
/** The kinds with cue words; `narration` is what is left when none stands out. */
type Cued = Exclude<SceneType, 'narration'>;

export interface SceneClassification {
  sceneType: SceneType;
  /** 0..1: how far the winner leads (0 for the narration fallback). */
  confidence: number;
  scores: Record<Cued, number>;
}

/** A winner needs this score (cue hits per 100 units, quote share counted ×10) … */
export const MIN_SCORE = 1.5;
/** … and this lead over the runner-up, as a share of its own score. */
const MIN_LEAD = 0.15;

/** Chinese cues: substrings (the text is not segmented here; each cue is specific enough alone). */
const ZH: Record<Cued, readonly string[]> = {
  dialogue: ['说', '问道', '答道', '喊道', '笑道', '低声', '回答', '嘟囔', '开口', '反问', '叫道'],
  action: ['拳', '踢', '挥', '砍', '劈', '刺', '扑', '躲', '闪开', '跃', '撞', '抓住', '拔出', '冲', '剑', '刀', '枪', '血', '喘', '追', '逃', '翻滚', '格挡', '出手', '攻', '射', '推开', '狂奔', '厮杀', '交手', '搏斗', '一脚', '击中'],
  description: ['阳光', '月光', '光线', '影子', '雾', '风', '雨', '雪', '云', '天空', '山', '河', '树', '花', '草', '颜色', '香', '气味', '寂静', '安静', '远处', '仿佛', '宛如', '映', '照', '铺', '静静', '缓缓', '微微', '淡淡', '柔和', '金色', '碧', '苍'],
  introspection: ['心里', '心中', '心想', '想起', '我想', '觉得', '感到', '记得', '回忆', '不知道', '也许', '或许', '难道', '为什么', '是不是', '明白', '后悔', '害怕', '希望', '犹豫', '怀疑', '思索', '念头'],
  exposition: ['年', '世纪', '历史', '传说', '据说', '曾经', '从前', '王国', '帝国', '世界', '大陆', '制度', '组织', '家族', '建立', '成立', '由于', '因此', '通常', '一般', '时代', '人们', '被称为', '规定', '律法'],
};

/** English cues: word prefixes (lowercase), so "punched", "punches" match "punch". */
const EN: Record<Cued, readonly string[]> = {
  dialogue: ['said', 'asked', 'replied', 'shouted', 'whispered', 'muttered', 'answered', 'yelled', 'told', 'snapped'],
  action: ['punch', 'kick', 'swung', 'swing', 'slash', 'stab', 'lunge', 'charg', 'dodg', 'duck', 'leap', 'jump', 'slam', 'grab', 'seiz', 'parr', 'strik', 'struck', 'fought', 'fight', 'ran', 'rush', 'dash', 'sprint', 'chas', 'fled', 'flee', 'blood', 'sword', 'blade', 'gun', 'shot', 'fist', 'hit'],
  description: ['sun', 'moon', 'light', 'shadow', 'fog', 'mist', 'wind', 'rain', 'snow', 'cloud', 'sky', 'mountain', 'river', 'tree', 'flower', 'grass', 'colo', 'golden', 'silver', 'scent', 'smell', 'quiet', 'silent', 'distant', 'glow', 'shimmer', 'soft', 'pale', 'gentl', 'hung', 'stretch'],
  introspection: ['thought', 'think', 'wonder', 'felt', 'feel', 'rememb', 'knew', 'maybe', 'perhaps', 'why', 'wish', 'hope', 'afraid', 'regret', 'myself', 'doubt', 'whether', 'realiz', 'mind'],
  exposition: ['year', 'centur', 'histor', 'legend', 'kingdom', 'empire', 'world', 'realm', 'founded', 'establish', 'because', 'therefore', 'thus', 'usually', 'generally', 'people', 'known', 'called', 'ago', 'era', 'law'],
};

const CUED: readonly Cued[] = ['dialogue', 'action', 'description', 'introspection', 'exposition'];
const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /[A-Za-z][A-Za-z'’-]*/g;
/** Text inside quotation marks: “…” 「…」 『…』 "…". */
const QUOTED = /“[^”]*”|「[^」]*」|『[^』]*』|"[^"\n]*"/gu;

/** Counted units: one per Han character, two per Latin word (a word carries about as much as two characters). */
function units(text: string): number {
  return (text.match(HAN)?.length ?? 0) + 2 * (text.match(LATIN_WORD)?.length ?? 0);
}

function countZh(text: string, cues: readonly string[]): number {
  let n = 0;
  // Non-overlapping occurrences (what split(cue).length - 1 counts), without building the arrays.
  for (const cue of cues) for (let at = text.indexOf(cue); at !== -1; at = text.indexOf(cue, at + cue.length)) n++;
  return n;
}

function countEn(words: readonly string[], cues: readonly string[]): number {
  let n = 0;
  for (const w of words) if (cues.some((c) => w.startsWith(c))) n++;
  return n;
}

export function classifyScene(text: string): SceneClassification {
  const scores: Record<Cued, number> = { dialogue: 0, action: 0, description: 0, introspection: 0, exposition: 0 };
  const total = units(text);
  if (total === 0) return { sceneType: 'narration', confidence: 0, scores };
  const per100 = 100 / Math.max(total, 20);
  const quoted = [...text.matchAll(QUOTED)].map((m) => m[0]);
  const quotedUnits = units(quoted.join(''));
  // Cue words count outside quotations only: what a character says is not what the scene does.
  const narrative = quoted.reduce((rest, q) => rest.replace(q, ' '), text);
  const words = (narrative.match(LATIN_WORD) ?? []).map((w) => w.toLowerCase());
  for (const kind of CUED) scores[kind] = (countZh(narrative, ZH[kind]) + countEn(words, EN[kind])) * per100;
  scores.dialogue += (quotedUnits / total) * 10;

  const sentences = splitSentences(narrative).filter((s) => units(s) > 0);
  if (sentences.length >= 2) {
    const mean = sentences.reduce((n, s) => n + units(s), 0) / sentences.length;
    const exclaimed = sentences.filter((s) => /[!！]/u.test(s)).length / sentences.length;
    // Short, clipped lines are how fights read in both languages.
    if (mean <= 12) scores.action += 1;
    scores.action += exclaimed * 2;
    scores.introspection += (sentences.filter((s) => /[?？]/u.test(s)).length / sentences.length) * 3;
  }
  for (const kind of CUED) scores[kind] = Math.round(scores[kind] * 100) / 100;

  const ranked = [...CUED].sort((a, b) => scores[b] - scores[a]);
  const [best, second] = ranked as [Cued, Cued];
  const lead = scores[best] === 0 ? 0 : (scores[best] - scores[second]) / scores[best];
  if (scores[best] < MIN_SCORE || lead < MIN_LEAD) return { sceneType: 'narration', confidence: 0, scores };
  return { sceneType: best, confidence: Math.round(lead * 100) / 100, scores };
}

export function isSceneType(value: unknown): value is SceneType {
  return typeof value === 'string' && (SCENE_TYPES as readonly string[]).includes(value);
}
