import type { MemoryCategory, ProfileSection } from './types';
import { favoriteSubjectId, lookupObject } from './lexicon';
import { normaliseText, slugify } from './text-norm';

/**
 * The key scheme: stable and language-independent, so "call me Sam" and "叫我小明" share `fact.name`
 * and supersede each other, while "I like tea" and "I like coffee" are two memories.
 *
 *   slot keys (one active memory each; value `{ [field]: … }`)
 *     fact.name {name}  fact.occupation {occupation}  fact.employer {employer}  fact.location {location}
 *     fact.work_location {location}  fact.hometown {place}  fact.age {age}  fact.native_language {language}
 *     fact.diet {diet}  fact.industry {industry}  preference.reply.language {language}  preference.reply.length {length}
 *     preference.reply.emoji {emoji}  preference.reply.tone {tone}  preference.reply.format {format}
 *   families (the last segment names the object)
 *     preference.<domain>.<object>   {object, stance: 'like'|'dislike'}  domain ∈ lexicon domains | topic
 *     preference.favorite.<subject>  {subject, object}
 *     preference.instruction.<slug>  {instruction}
 *     fact.allergy.<slug>            {allergen}
 *     fact.relation.<slug>           {relation, name}   "my sister is called Lena", "我妹妹叫莉娜"
 *     fact.note.<slug>               {note}             what the user asked to remember that no rule reads
 *     pattern.habit.<slug>           {habit}
 * Objects found in the lexicon get its id (`coffee`); others keep their own slug (`爬山`).
 */

export interface SlotSpec {
  field: string;
  section: ProfileSection;
}

export const SLOTS: Readonly<Record<string, SlotSpec>> = {
  'fact.name': { field: 'name', section: 'background' },
  'fact.occupation': { field: 'occupation', section: 'background' },
  'fact.employer': { field: 'employer', section: 'background' },
  'fact.location': { field: 'location', section: 'background' },
  'fact.work_location': { field: 'location', section: 'background' },
  'fact.hometown': { field: 'place', section: 'background' },
  'fact.age': { field: 'age', section: 'background' },
  'fact.native_language': { field: 'language', section: 'language' },
  'fact.diet': { field: 'diet', section: 'background' },
  'fact.industry': { field: 'industry', section: 'background' },
  'preference.reply.language': { field: 'language', section: 'language' },
  'preference.reply.length': { field: 'length', section: 'reply_style' },
  'preference.reply.emoji': { field: 'emoji', section: 'reply_style' },
  'preference.reply.tone': { field: 'tone', section: 'reply_style' },
  'preference.reply.format': { field: 'format', section: 'reply_style' },
};

const LIKE_DOMAINS = ['food', 'programming', 'tool', 'music', 'sport', 'hobby', 'topic'];
const FAMILY = new RegExp(
  `^(preference\\.(${LIKE_DOMAINS.join('|')}|favorite|instruction)|fact\\.(?:allergy|relation|note)|pattern\\.habit)\\.[^.]+$`,
  'u',
);

/** True for keys of the scheme above; model keys outside it are free-form (compared by content). */
export function isSchemaKey(key: string): boolean {
  return Object.hasOwn(SLOTS, key) || FAMILY.test(key);
}

export function isSlotKey(key: string): boolean {
  return Object.hasOwn(SLOTS, key);
}

/** `preference.<domain>.<object>` for a liked or disliked object. */
export function likeKey(object: string): { key: string; domain: string } {
  const entry = lookupObject(object);
  if (entry) return { key: `preference.${entry.domain}.${entry.id}`, domain: entry.domain };
  return { key: `preference.topic.${slugify(object) || 'unknown'}`, domain: 'topic' };
}

export type KeyFamily = 'preference.favorite' | 'preference.instruction' | 'fact.allergy' | 'fact.relation' | 'fact.note' | 'pattern.habit';

/**
 * A note (`<category>.note.<id>`: a memory added by hand, or one the user asked to remember that no rule
 * reads) names no attribute: two notes are the same memory only when their words are.
 */
export function isNoteKey(key: string): boolean {
  return /^[a-z]+\.note\./u.test(key);
}

/** `<family>.<id>`: lexicon ids where the text names a known object or favourite subject, else a slug. */
export function familyKey(family: KeyFamily, text: string): string {
  let id: string | null = null;
  if (family === 'preference.favorite') id = favoriteSubjectId(text);
  else if (family === 'fact.allergy') id = lookupObject(text)?.id ?? null;
  return `${family}.${id ?? (slugify(text) || 'unknown')}`;
}

/** Keys models commonly invent, mapped onto the slots. */
const MODEL_KEY_ALIASES: Readonly<Record<string, string>> = {
  name: 'fact.name', user_name: 'fact.name', username: 'fact.name', preferred_name: 'fact.name', nickname: 'fact.name',
  occupation: 'fact.occupation', job: 'fact.occupation', profession: 'fact.occupation', job_title: 'fact.occupation',
  employer: 'fact.employer', company: 'fact.employer', workplace: 'fact.employer',
  location: 'fact.location', city: 'fact.location', residence: 'fact.location', home_city: 'fact.location',
  age: 'fact.age', native_language: 'fact.native_language', mother_tongue: 'fact.native_language',
  reply_language: 'preference.reply.language', response_language: 'preference.reply.language',
  language_preference: 'preference.reply.language', answer_length: 'preference.reply.length',
  response_length: 'preference.reply.length',
};

/**
 * A model's key in the scheme's shape: lower case, `.`-separated, prefixed by its category when it has
 * none (`favorite_drink` → `preference.favorite_drink`), common aliases mapped onto slots.
 */
export function normaliseModelKey(key: string, category: MemoryCategory): string {
  const all = normaliseText(key)
    .split(/[./:\s]+/u)
    .map((p) => p.replace(/[^\p{L}\p{N}_+#-]/gu, ''))
    .filter((p) => p !== '');
  // "user.name" is about the user like every memory: the prefix says nothing.
  const parts = all[0] === 'user' || all[0] === 'user_profile' ? all.slice(1) : all;
  const joined = parts.join('.');
  const bare = parts[0] === 'fact' || parts[0] === 'preference' ? parts.slice(1).join('_') : parts.join('_');
  const alias = MODEL_KEY_ALIASES[bare];
  if (alias) return alias;
  if (parts.length === 0) return `${category}.unknown`;
  if (parts[0] === 'preference' || parts[0] === 'fact' || parts[0] === 'pattern') return joined;
  return `${category}.${joined}`;
}

/** Slot values are objects `{ [field]: … }`; a model's bare `"Sam"` for `fact.name` becomes `{ name: 'Sam' }`. */
export function shapeValue(key: string, value: unknown): unknown {
  const slot = SLOTS[key];
  if (!slot || value === null || typeof value === 'object') return value;
  return { [slot.field]: value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Negative for a dislike or a withdrawal (`null`), positive otherwise. */
export function polarityOf(value: unknown): 'positive' | 'negative' {
  if (value === null || value === false) return 'negative';
  if (isRecord(value)) {
    const stance = value['stance'] ?? value['polarity'] ?? value['sentiment'];
    if (stance === 'dislike' || stance === 'negative' || value['likes'] === false) return 'negative';
  }
  return 'positive';
}

/**
 * What two values of the same key must share to be "the same thing": for likes the stance only (the
 * object is in the key; its display text differs by language), for favourites the object, otherwise
 * the normalised JSON.
 */
export function valueSignature(value: unknown): string {
  if (isRecord(value) && typeof value['stance'] === 'string') return `stance:${value['stance']}`;
  if (isRecord(value) && 'subject' in value) {
    // A favourite's subject is in the key too ("颜色" and "color" are the same subject).
    const { subject: _subject, ...rest } = value;
    return JSON.stringify(canonical(rest));
  }
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (typeof value === 'string') return normaliseText(value).replace(/[\p{P}\s]+$/u, '');
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  }
  return value ?? null;
}
