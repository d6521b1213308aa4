import type { Draft, ExtractRule } from './extract-support';
import { cleanEnObject, family, instruction, INSTRUCTION_CONFIDENCE, like, relation, slot, splitObjects } from './extract-support';
import { isPlace, languageCode, PROFESSIONS_EN } from './lexicon';

/**
 * English rules. Each runs on one clause with its lead-in ("btw", "honestly", "and") removed and must
 * start with the user as subject ("I …", "my name …", "call me …"), so "my friend likes…", "he said I…"
 * and "my wife and I…" never match. The first rule that matches (and builds) wins.
 */

/** Adverbs between "I" and the verb; hedges (might/probably/kind of…) are deliberately absent. */
const ADV = "(?:(?:really|also|still|just|actually|honestly|absolutely|totally|definitely|truly|genuinely|generally|do|much|now|personally|especially|mostly|always|usually|very much|so)\\s+)*";
export const PERSIST_EN = /\b(?:from now on|going forward|in the future|in future|from here on|always|never|every time|whenever you|all the time)\b/iu;
/** An imperative's optional lead-in: "From now on, please always …". */
const LEAD = '(?:please,?\\s+)?(?:(?:from now on|going forward|in the future|in future|from here on),?\\s+)?(?:please,?\\s+)?(?:always\\s+)?';
const LANG = '(chinese|mandarin|english|japanese|korean|french|german|spanish|cantonese)';
const NAME_STOP = new Set([
  'not', 'important', 'a', 'an', 'the', 'back', 'later', 'tomorrow', 'tonight', 'when', 'if', 'after', 'before',
  'anytime', 'now', 'maybe', 'crazy', 'old', 'out', 'up', 'on', 'at', 'in', 'soon', 'sometime', 'please', 'again',
  'whatever', 'anything', 'something', 'nothing', 'you', 'him', 'her', 'them', 'it', 'this', 'that', 'what',
  'asap', 'right', 'so', 'too', 'ishmael', 'irrelevant', 'secret', 'unknown',
]);

function name(raw: string): Draft | null {
  const value = nameValue(raw);
  return value === null ? null : slot('fact.name', value, { confidence: INSTRUCTION_CONFIDENCE });
}

/** A person's or pet's name: at most three words of letters, not a word that only looks like one ("not", "later"). */
function nameValue(raw: string): string | null {
  const value = raw
    .replace(/[.!,;]+$/u, '')
    .replace(/\s+(?:please|from now on|instead|going forward|for short|though|by the way|thanks|thank you)$/iu, '')
    .trim();
  const words = value.split(/\s+/u);
  if (value === '' || words.length > 3 || !words.every((w) => /^[\p{L}][\p{L}'.-]*$/u.test(w))) return null;
  if (NAME_STOP.has(words[0]!.toLowerCase())) return null;
  return value;
}

/** People and pets named in the other order ("Lena is my sister") or as one the user has ("a puppy called Max"). */
const KIN_EN =
  '((?:(?:little|older|younger|big|baby|best|eldest|oldest|youngest|twin|step)\\s+)?(?:sister|brother|mother|mom|mum|father|dad|wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|son|daughter|kid|child|friend|boss|cousin|aunt|uncle|niece|nephew|grandmother|grandfather|grandma|grandpa|roommate|flatmate|colleague|dog|puppy|cat|kitten|parrot|rabbit|hamster|horse))';

/** Whose name it is: "sister", "older brother", "best friend", "dog" (two words at most, never "name"). */
const RELATION_EN = "((?:(?:little|older|younger|big|baby|best|eldest|oldest|youngest|twin|step|new)\\s+)?[a-z][a-z-]{1,20}(?:\\s+[a-z][a-z-]{1,20})?)";

function likes(raw: string, stance: 'like' | 'dislike', retracts = false): Draft[] | null {
  const object = cleanEnObject(raw);
  if (!object) return null;
  return splitObjects(object, 'en').map((o) => like(o, stance, retracts));
}

function isProfession(job: string): boolean {
  const head = job.toLowerCase().split(/\s+/u).at(-1)!.replace(/s$/u, '');
  return job.split(/\s+/u).length <= 5 && PROFESSIONS_EN.includes(head);
}

/** An employer names an organisation: capitalised ("Google", "the BBC") or "a startup", "a bank". */
function employer(raw: string): string | null {
  const text = raw.replace(/[.!]+$/u, '').replace(/\s+(?:now|currently|these days|since \d{4}|for (?:\d+|a few|two|three) \w+)$/iu, '').trim();
  if (/^(?:home|myself|free|fun|money|a living)$/iu.test(text)) return null;
  if (/\p{Lu}/u.test(text) || /^(?:an? |the )?(?:[\w-]+ ){0,3}(?:startup|company|bank|hospital|school|university|agency|firm|studio|lab|nonprofit|hotel|restaurant|store|shop|factory)$/iu.test(text)) {
    return text.split(/\s+/u).length <= 6 ? text : null;
  }
  return null;
}

function place(raw: string): string | null {
  const text = raw.replace(/[.!]+$/u, '').replace(/\s+(?:now|currently|these days|since \d{4}|with .*|and .*)$/iu, '').trim();
  return text.split(/\s+/u).length <= 5 && (/^\p{Lu}/u.test(text) || isPlace(text)) ? text : null;
}

export const EN_RULES: readonly ExtractRule[] = [
  // ── how to answer (instructions) ─────────────────────────────────────────
  {
    id: 'en.name.call-me',
    kind: 'instruction',
    re: /^(?:please,?\s+)?(?:(?:from now on|going forward),?\s+)?(?:please,?\s+)?(?:(?:you can|you may|feel free to|just|everyone|people|my friends|friends)\s+)?(?:always\s+)?calls?\s+me\s+(.+)$/iu,
    build: (m) => name(m[1]!),
  },
  {
    id: 'en.reply.language',
    kind: 'instruction',
    re: new RegExp(`^${LEAD}(?:reply|respond|answer|write|talk|speak|communicate|chat)\\b.*\\bin ${LANG}\\b`, 'iu'),
    build: (m, ctx) => {
      const code = languageCode(m[1]!);
      return code && PERSIST_EN.test(ctx.sentence) ? slot('preference.reply.language', code, { confidence: INSTRUCTION_CONFIDENCE }) : null;
    },
  },
  {
    id: 'en.reply.length',
    kind: 'instruction',
    re: new RegExp(`^${LEAD}(?:keep|make|be|give)\\b.*?\\b(short|shorter|brief|concise|detailed|thorough|longer|in-depth)\\b`, 'iu'),
    build: (m, ctx) => {
      if (!PERSIST_EN.test(ctx.sentence)) return null;
      const length = /detailed|thorough|longer|in-depth/iu.test(m[1]!) ? 'detailed' : 'concise';
      return slot('preference.reply.length', length, { confidence: INSTRUCTION_CONFIDENCE });
    },
  },
  {
    id: 'en.reply.emoji',
    kind: 'instruction',
    re: /\b(?:don't|do not|never|stop|no more)\s+(?:use\s+|using\s+|add\s+|adding\s+|include\s+|including\s+|put\s+)?(?:any\s+)?emojis?\b/iu,
    build: () => slot('preference.reply.emoji', false, { confidence: INSTRUCTION_CONFIDENCE }),
  },
  {
    id: 'en.instruction.standing',
    kind: 'instruction',
    re: /^(?:please,?\s+)?(?:from now on|going forward|in the future|in future|from here on|always|never)\b,?\s+(?:please,?\s+)?(.{3,120})$/iu,
    build: (m) => {
      const rest = m[1]!.replace(/[.!]+$/u, '');
      // "from now on I'll …" is about the user, "never mind" is not an instruction.
      if (/^(?:i|i'm|i'll|i've|we|he|she|they|it|my|mind|again)\b/iu.test(rest)) return null;
      const lead = /^never\b/iu.test(m[0].replace(/^please,?\s+/iu, '')) ? 'never ' : '';
      return instruction(`${lead}${rest}`);
    },
  },
  // ── who the user is (statements) ─────────────────────────────────────────
  { id: 'en.name.is', kind: 'statement', re: /^my (?:first |full )?name(?: is|'s) (.+)$/iu, build: (m) => name(m[1]!) },
  { id: 'en.name.go-by', kind: 'statement', re: /^i(?: go by|'m called| am called) (.+)$/iu, build: (m) => name(m[1]!) },
  {
    id: 'en.relation.called',
    kind: 'statement',
    re: new RegExp(`^my ${RELATION_EN}(?:'s name is|’s name is| is called| is named| goes by| name is)\\s+(.+)$`, 'iu'),
    build: (m) => {
      const who = m[1]!;
      const value = nameValue(m[2]!);
      return value && !/\\bname$/iu.test(who) ? relation(who.toLowerCase(), value) : null;
    },
  },
  {
    id: 'en.relation.is-my',
    kind: 'statement',
    re: new RegExp(`^(\\p{Lu}[\\p{L}'-]*(?: \\p{Lu}[\\p{L}'-]*)?) is my ${KIN_EN}(?:['’]s name)?$`, 'u'),
    build: (m) => {
      const value = nameValue(m[1]!);
      return value ? relation(m[2]!.toLowerCase(), value) : null;
    },
  },
  {
    id: 'en.relation.have',
    kind: 'statement',
    re: new RegExp(`^i(?:'ve got| have got| have| got| just got| adopted| just adopted| recently adopted) (?:a|an) ${KIN_EN} (?:called|named) (.+)$`, 'iu'),
    build: (m) => {
      const value = nameValue(m[2]!);
      return value ? relation(m[1]!.toLowerCase(), value) : null;
    },
  },
  { id: 'en.name.prefer', kind: 'statement', re: /^i(?:'d| would)? (?:prefer|like) to be called (.+)$/iu, build: (m) => name(m[1]!) },
  {
    id: 'en.occupation.work-as',
    kind: 'statement',
    re: /^i(?: currently)? work as (?:an? )?(.+?)(?: (?:at|for) (.+))?$/iu,
    build: (m) => {
      const job = cleanEnObject(m[1]!);
      if (!job) return null;
      const org = m[2] ? employer(m[2]) : null;
      return org ? [slot('fact.occupation', job), slot('fact.employer', org)] : slot('fact.occupation', job);
    },
  },
  {
    id: 'en.occupation.i-am',
    kind: 'statement',
    re: /^i(?:'m| am) (?:currently |now )?(?:an? )(.+?)(?: (?:at|for|with) (.+?))?(?: by (?:profession|trade))?[.!]?$/iu,
    build: (m) => {
      if (!isProfession(m[1]!)) return null;
      const org = m[2] ? employer(m[2]) : null;
      return org ? [slot('fact.occupation', m[1]!), slot('fact.employer', org)] : slot('fact.occupation', m[1]!);
    },
  },
  { id: 'en.occupation.my-job', kind: 'statement', re: /^my (?:job|profession|occupation) is (?:an? )?(.+?)[.!]?$/iu, build: (m) => slot('fact.occupation', m[1]!) },
  {
    id: 'en.employer.left',
    kind: 'statement',
    re: /^i (?:no longer work (?:at|for) .+|(?:don't|do not) work (?:at|for) .+ any ?more|(?:quit|left) my job(?: at .+)?)$/iu,
    build: () => slot('fact.employer', null),
  },
  {
    id: 'en.employer.at',
    kind: 'statement',
    re: /^i(?:'m| am)? (?:currently )?(?:work|working|employed) (?:at|for|by) (.+?)(?: as (?:an? )?(.+))?$/iu,
    build: (m) => {
      const org = employer(m[1]!);
      if (!org) return null;
      const job = m[2] ? cleanEnObject(m[2]) : null;
      return job ? [slot('fact.employer', org), slot('fact.occupation', job)] : slot('fact.employer', org);
    },
  },
  {
    id: 'en.employer.joined',
    kind: 'statement',
    re: /^i(?:'ve| have)? (?:just )?(?:joined|started at|started working at|started working for) (.+)$/iu,
    build: (m) => {
      const org = employer(m[1]!);
      return org ? slot('fact.employer', org) : null;
    },
  },
  {
    id: 'en.work-in',
    kind: 'statement',
    re: /^i (?:currently )?work in (.+?)[.!]?$/iu,
    build: (m) => {
      const where = m[1]!;
      if (isPlace(where) || /^\p{Lu}/u.test(where)) return slot('fact.work_location', where);
      return where.split(/\s+/u).length <= 3 ? slot('fact.industry', where) : null;
    },
  },
  {
    id: 'en.location.left',
    kind: 'statement',
    re: /^i (?:no longer live in .+|(?:don't|do not) live in .+ any ?more)$/iu,
    build: () => slot('fact.location', null),
  },
  {
    id: 'en.location.live',
    kind: 'statement',
    re: /^i(?:'m| am)? (?:currently )?(?:live|living|based|reside|residing) in (.+)$/iu,
    build: (m) => {
      const where = place(m[1]!);
      return where ? slot('fact.location', where) : null;
    },
  },
  {
    id: 'en.location.moved',
    kind: 'statement',
    re: /^i(?:'ve| have)? (?:just |recently )?(?:moved|relocated) to (.+)$/iu,
    build: (m) => {
      const where = place(m[1]!);
      return where ? slot('fact.location', where) : null;
    },
  },
  {
    id: 'en.hometown',
    kind: 'statement',
    re: /^i(?:'m| am) (?:originally )?from (.+)$/iu,
    build: (m) => {
      const where = place(m[1]!);
      return where ? slot('fact.hometown', where) : null;
    },
  },
  {
    id: 'en.age',
    kind: 'statement',
    re: /^i(?:'m| am) (\d{1,3})(?: years? old| yrs old| y\/?o)?[.!]?$/iu,
    build: (m) => {
      const n = Number(m[1]);
      return n >= 5 && n <= 120 ? slot('fact.age', n) : null;
    },
  },
  {
    id: 'en.native-language',
    kind: 'statement',
    re: new RegExp(`^(?:my (?:native|first|mother) (?:language|tongue) is ${LANG}|i(?:'m| am) a native ${LANG} speaker|i speak ${LANG} natively)[.!]?$`, 'iu'),
    build: (m) => slot('fact.native_language', languageCode(m[1] ?? m[2] ?? m[3]!)),
  },
  {
    id: 'en.allergy',
    kind: 'statement',
    re: /^i(?:'m| am) (?:severely |very |really |quite )?allergic to (.+)$/iu,
    build: (m) => {
      const allergen = cleanEnObject(m[1]!);
      return allergen ? family('fact.allergy', allergen, { allergen }) : null;
    },
  },
  {
    id: 'en.diet',
    kind: 'statement',
    re: /^(?:i(?:'m| am) (?:a |an )?(vegetarian|vegan)|i (?:don't|do not) eat meat)[.!]?$/iu,
    build: (m) => slot('fact.diet', m[1]?.toLowerCase() === 'vegan' ? 'vegan' : 'vegetarian'),
  },
  // ── likes and dislikes ───────────────────────────────────────────────────
  {
    id: 'en.favorite',
    kind: 'statement',
    re: /^my (?:absolute |all-time )?favou?rite (.{1,30}?) (?:is|are) (.+)$/iu,
    build: (m) => {
      const object = cleanEnObject(m[2]!);
      return object ? family('preference.favorite', m[1]!, { subject: m[1]!, object }) : null;
    },
  },
  {
    id: 'en.reply.prefer',
    kind: 'statement',
    re: new RegExp(`^i ${ADV}(?:prefer|like|want) (?:(short|shorter|brief|concise|detailed|longer|in-depth|thorough) (?:answers|replies|responses|explanations)|(?:answers|replies|responses) in ${LANG})[.!]?$`, 'iu'),
    build: (m) => {
      if (m[2]) return slot('preference.reply.language', languageCode(m[2]));
      return slot('preference.reply.length', /detailed|longer|in-depth|thorough/iu.test(m[1]!) ? 'detailed' : 'concise');
    },
  },
  {
    id: 'en.fan',
    kind: 'statement',
    re: /^i(?:'m| am) (not |no longer )?(?:(?:a |an )?(?:big |huge |massive )?fan of|(?:really )?into) (.+)$/iu,
    build: (m) => likes(m[2]!, m[1] ? 'dislike' : 'like', /no longer|any ?more/iu.test(m[0])),
  },
  {
    id: 'en.retract',
    kind: 'statement',
    re: /^i(?:'ve| have)? (?:no longer (?:like|love|enjoy|drink|eat|use)|stopped (?:liking|drinking|eating|using)|quit|gave up|given up) (.+)$/iu,
    build: (m) => likes(m[1]!, 'dislike', true),
  },
  {
    id: 'en.dislike',
    kind: 'statement',
    re: new RegExp(`^i ${ADV}(?:(?:don't|do not|dont) (?:really )?(?:like|love|enjoy|eat|drink)|dislike|hate|detest|loathe|can't stand|cannot stand|can't bear) (.+)$`, 'iu'),
    build: (m) => likes(m[1]!, 'dislike', /\bany ?more\b|\bno longer\b/iu.test(m[0])),
  },
  {
    id: 'en.switch',
    kind: 'statement',
    re: /^i(?:'ve| have)? (?:switched|moved on) (?:from .+? )?to (.+)$/iu,
    build: (m) => likes(m[1]!, 'like'),
  },
  {
    id: 'en.like',
    kind: 'statement',
    re: new RegExp(`^i ${ADV}(?:like|love|enjoy|adore|prefer|dig)(?: to)? (.+)$`, 'iu'),
    build: (m) => likes(m[1]!, 'like'),
  },
  // ── habits (category `pattern`) ──────────────────────────────────────────
  {
    id: 'en.habit',
    kind: 'statement',
    re: /^i (?:usually|often|normally|typically|always|tend to|regularly|frequently|mostly) (.{3,60}?)[.!]?$/iu,
    build: (m) => family('pattern.habit', m[1]!, { habit: m[1]! }),
  },
];
