import type { MemoryCandidate, ProfileHint, ProfileSection } from './types';
import { familyKey, SLOTS } from './keys';
import { languageName } from './lexicon';
import { hasHan, normaliseText, slugify } from './text-norm';

/**
 * How memory keys appear as lines of the profile document, and back. A line written for a slot carries
 * a label ("称呼：小明", "Name: Sam"); a label in either language tells which key the line stands for,
 * so a later hint for the same key replaces the line instead of adding a second, contradicting one.
 */

type Lang = 'zh' | 'en';

const LABELS: Readonly<Record<string, Record<Lang, string>>> = {
  'fact.name': { en: 'Name', zh: '称呼' },
  'fact.occupation': { en: 'Occupation', zh: '职业' },
  'fact.employer': { en: 'Employer', zh: '工作单位' },
  'fact.location': { en: 'Lives in', zh: '居住地' },
  'fact.work_location': { en: 'Works in', zh: '工作地点' },
  'fact.hometown': { en: 'Hometown', zh: '家乡' },
  'fact.age': { en: 'Age', zh: '年龄' },
  'fact.native_language': { en: 'Native language', zh: '母语' },
  'fact.diet': { en: 'Diet', zh: '饮食' },
  'fact.industry': { en: 'Industry', zh: '行业' },
  'fact.allergy': { en: 'Allergic to', zh: '过敏' },
  'preference.reply.language': { en: 'Reply language', zh: '回复语言' },
  'preference.reply.length': { en: 'Answer length', zh: '回答长度' },
  'preference.reply.emoji': { en: 'Emoji', zh: '表情符号' },
  'preference.reply.tone': { en: 'Tone', zh: '语气' },
  'preference.reply.format': { en: 'Format', zh: '格式' },
};

const DISPLAY: Readonly<Record<string, Record<Lang, string>>> = {
  concise: { en: 'concise', zh: '简洁' },
  detailed: { en: 'detailed', zh: '详细' },
  none: { en: 'none', zh: '不用' },
  formal: { en: 'formal', zh: '正式' },
  casual: { en: 'casual', zh: '轻松' },
  bullets: { en: 'bullet points', zh: '要点列表' },
  table: { en: 'tables', zh: '表格' },
  vegetarian: { en: 'vegetarian', zh: '素食' },
  vegan: { en: 'vegan', zh: '纯素' },
};

function display(field: string, raw: unknown, lang: Lang): string {
  if (field === 'language' && typeof raw === 'string') return languageName(raw, lang);
  if (raw === false) return DISPLAY['none']![lang];
  const text = String(raw);
  return DISPLAY[text]?.[lang] ?? text;
}

function labelled(key: string, value: string, lang: Lang): string {
  const label = LABELS[key]![lang];
  return lang === 'zh' ? `${label}：${value}` : `${label}: ${value}`;
}

/** The profile lines a candidate implies: slots and instructions only; likes stay memories. */
export function profileHintsFor(candidate: Pick<MemoryCandidate, 'key' | 'value' | 'language'>): ProfileHint[] {
  const lang: Lang = candidate.language === 'zh' ? 'zh' : 'en';
  const { key, value } = candidate;
  const slot = SLOTS[key];
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  if (slot && LABELS[key]) {
    if (value === null) return [{ section: slot.section, key, text: LABELS[key][lang], remove: true }];
    const raw = record ? record[slot.field] : value;
    if (raw === undefined || raw === null || raw === '') return [];
    return [{ section: slot.section, key, text: labelled(key, display(slot.field, raw, lang), lang) }];
  }
  if (key.startsWith('fact.allergy.') && typeof record?.['allergen'] === 'string') {
    return [{ section: 'background', key, text: labelled('fact.allergy', record['allergen'], lang) }];
  }
  if (key.startsWith('preference.instruction.') && typeof record?.['instruction'] === 'string') {
    return [{ section: 'reply_style', key, text: record['instruction'] }];
  }
  return [];
}

const LABEL_INDEX: readonly { label: string; key: string }[] = Object.entries(LABELS).flatMap(([key, l]) => [
  { label: normaliseText(l.en), key },
  { label: normaliseText(l.zh), key },
]);

const LENGTH_CUE = /简洁|简短|简明|精简|短一点|详细|具体一点|concise|brief|short answers?|detailed|in detail|thorough/iu;
const LANGUAGE_CUE = /(用|以).{0,3}(中文|英文|英语|日语|汉语)|in (chinese|english|japanese)/iu;

/**
 * The key a profile line stands for, or null. A labelled line ("Name: Sam") maps to its slot; an
 * unlabelled reply-style line the user typed is recognised by a few cues ("回答尽量简洁" → length),
 * and any other reply-style line stands for the instruction with its own slug.
 */
export function classifyProfileLine(line: string, section: ProfileSection): string | null {
  const norm = normaliseText(line);
  const m = /^([^:：]{1,24})\s*[:：]\s*(.+)$/u.exec(norm);
  if (m) {
    const hit = LABEL_INDEX.find((l) => l.label === m[1]!.trim());
    if (hit?.key === 'fact.allergy') return familyKey('fact.allergy', m[2]!);
    if (hit) return hit.key;
  }
  if (section === 'reply_style' && LENGTH_CUE.test(norm)) return 'preference.reply.length';
  if (LANGUAGE_CUE.test(norm) && /回答|回复|交流|reply|answer|respond|write/iu.test(norm)) return 'preference.reply.language';
  if (section === 'reply_style') return `preference.instruction.${slugify(line) || 'unknown'}`;
  return null;
}

/** zh-CN when the text is Chinese, en otherwise. */
export function localeOf(text: string): 'en' | 'zh-CN' {
  return hasHan(text) ? 'zh-CN' : 'en';
}
