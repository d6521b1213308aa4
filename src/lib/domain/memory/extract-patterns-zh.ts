import type { Draft, ExtractRule } from './extract-support';
import { cleanZhObject, family, instruction, INSTRUCTION_CONFIDENCE, like, relation, slot, splitObjects } from './extract-support';
import { isPlace, languageCode, PROFESSION_SUFFIX_ZH } from './lexicon';

/**
 * Chinese rules. Each runs on one clause whose subject is already resolved: "我叫张伟，是一名程序员"
 * gives the clauses "我叫张伟" and "我是一名程序员". Statements start with 我 (never 我们/我朋友/他…),
 * so reported speech, other people and hypotheticals ("如果我喜欢…") do not match by construction.
 * The first rule that matches a clause wins, so specific rules come first.
 */

/** Adverbs between 我 and the verb; hedges (可能/也许/好像…) are deliberately absent. */
const ADV = '(?:现在|目前|其实|真的|特别|非常|很|也|还|都|一直|比较|最|挺|超级|超|平时|一般|通常|从小就|从小|本来|已经|再也|从来|确实|个人|自己|就|向来|还是|更|蛮|相当|十分|真心|一向)*';
export const PERSIST_ZH = /以后|今后|往后|之后|从现在开始|从现在起|从今以后|接下来|从此|每次|始终|一直|总是|永远/u;
const NAME = '([\\p{Script=Han}·]{1,5}?|[A-Za-z][A-Za-z .\'-]{0,30}?)';
const NAME_TAIL = '(?:就行了?|就好了?|就可以了?|好了|哦|啊|呀|喔)?';
const LANG = '(中文|汉语|普通话|英文|英语|日语|日文|韩语|法语|德语|西班牙语|粤语)';
const NOT_A_NAME = /^(?:他|她|你|它|我|了|过|一|起|去|来|回|外卖|车|醒)|了|起床|吃饭|回家|帮忙|干活|出去|过来|声/u;
const NOT_A_HOME = /^(?:这里|那里|这儿|那儿|家里|附近|楼上|楼下|宿舍)$/u;
const NOT_A_WORKPLACE = /^(?:家|家里|公司|这里|那里|这儿|那儿|外面|单位|办公室|这|那|哪)$/u;

function name(raw: string): Draft | null {
  const value = raw.trim();
  if (value === '' || NOT_A_NAME.test(value)) return null;
  return slot('fact.name', value, { confidence: INSTRUCTION_CONFIDENCE });
}

/** People and pets named without 的 ("我妹妹叫莉娜"); with 的 any short noun names whose name it is ("我的猫叫咪咪"). */
const KIN_ZH =
  '(妹妹|姐姐|哥哥|弟弟|妈妈|爸爸|母亲|父亲|老婆|老公|妻子|丈夫|太太|女朋友|男朋友|对象|儿子|女儿|孩子|宝宝|同事|老板|上司|领导|好朋友|朋友|闺蜜|室友|爷爷|奶奶|外公|外婆|姥姥|姥爷|舅舅|阿姨|叔叔|狗狗|狗|猫咪|猫|宠物)';

function likes(raw: string, stance: 'like' | 'dislike', retracts = false): Draft[] | null {
  const object = cleanZhObject(raw);
  if (!object) return null;
  return splitObjects(object, 'zh').map((o) => like(o, stance, retracts));
}

/** 一…九十九 or digits → a number. */
function age(raw: string): number | null {
  if (/^\d+$/u.test(raw)) return Number(raw);
  const digits = '零一二三四五六七八九';
  const m = /^([一二三四五六七八九])?(十)?([一二三四五六七八九])?$/u.exec(raw);
  if (!m || raw === '') return null;
  const tens = m[2] ? (m[1] ? digits.indexOf(m[1]) : 1) : 0;
  const ones = m[3] ? digits.indexOf(m[3]) : m[2] ? 0 : m[1] ? digits.indexOf(m[1]) : 0;
  return tens * 10 + ones;
}

const RETRACT_ZH = /不再|再也不|已经不|现在不|了[。！!]?$/u;

export const ZH_RULES: readonly ExtractRule[] = [
  // ── how to answer (instructions) ─────────────────────────────────────────
  {
    id: 'zh.name.call-me',
    kind: 'instruction',
    re: new RegExp(`^(?:以后|今后|从现在开始)?[，,]?(?:你|大家|朋友们|别人)?(?:可以|就|请|都|直接)*叫我${NAME}${NAME_TAIL}$`, 'u'),
    build: (m) => name(m[1]!),
  },
  {
    id: 'zh.reply.language',
    kind: 'instruction',
    re: new RegExp(`(?:请|麻烦)?你?(?:都|一律|尽量|始终|一直|总是)?(?:用|使用|以)${LANG}(?:来)?(?:回答|回复|交流|沟通|和我(?:说话|交流|聊天)|跟我(?:说话|交流|聊天)|聊天|写)`, 'u'),
    build: (m, ctx) => {
      const code = languageCode(m[1]!);
      const standing = PERSIST_ZH.test(ctx.sentence) || /都|一律|始终|一直|总是|喜欢|习惯|希望/u.test(ctx.clause);
      return code && standing ? slot('preference.reply.language', code, { confidence: INSTRUCTION_CONFIDENCE }) : null;
    },
  },
  {
    id: 'zh.reply.length',
    kind: 'instruction',
    re: /(?:回答|回复|解释|答案)(?:要|得|请|都)?(?:尽量|尽可能)?(?:再|更)?(简洁|简短|简单|精简|短|详细|具体)(?:一点|一些|些)?/u,
    build: (m, ctx) => {
      const standing = PERSIST_ZH.test(ctx.sentence) || /喜欢|习惯|希望/u.test(ctx.clause);
      const length = /详细|具体/u.test(m[1]!) ? 'detailed' : 'concise';
      return standing ? slot('preference.reply.length', length, { confidence: INSTRUCTION_CONFIDENCE }) : null;
    },
  },
  {
    id: 'zh.reply.emoji',
    kind: 'instruction',
    re: /(?:不要|别|不用|不许|禁止)(?:再)?(?:用|使用|加|发|带)(?:任何)?(?:表情|表情符号|emoji|颜文字)/iu,
    build: () => slot('preference.reply.emoji', false, { confidence: INSTRUCTION_CONFIDENCE }),
  },
  {
    id: 'zh.instruction.standing',
    kind: 'instruction',
    re: /^(?:以后|今后|往后|从现在开始|从现在起|从今以后|接下来)[，,]?(?:你)?(?:请|麻烦|记得|务必|都|回答|写|代码|解释|给我|不要|别)(.{2,60})$/u,
    build: (m) => {
      const text = m[0].replace(/^(?:以后|今后|往后|从现在开始|从现在起|从今以后|接下来)[，,]?(?:你)?(?:请|麻烦)?/u, '').replace(/[。！!]+$/u, '');
      // Not standing instructions: "以后再聊", "以后请多多关照", "以后别这样了" (points at the chat).
      return /再聊|再说|再见|再谈|关照|指教|这样|那样|这么|那么/u.test(text) ? null : instruction(text);
    },
  },
  // ── who the user is (statements) ─────────────────────────────────────────
  { id: 'zh.name.is', kind: 'statement', re: new RegExp(`^我(?:的)?名字(?:叫做?|是)${NAME}${NAME_TAIL}$`, 'u'), build: (m) => name(m[1]!) },
  { id: 'zh.name.jiao', kind: 'statement', re: new RegExp(`^我叫做?${NAME}${NAME_TAIL}$`, 'u'), build: (m) => name(m[1]!) },
  {
    id: 'zh.relation.called',
    kind: 'statement',
    // "我妹妹叫莉娜", "我的猫叫咪咪", "我家狗狗叫旺财", "我有个妹妹叫莉娜", "我养了一只猫叫咪咪".
    re: new RegExp(`^我(?:有(?:一)?(?:个|位)|养了?(?:一)?(?:只|条|个)|家(?:的)?)?(?:${KIN_ZH}|的(\\p{Script=Han}{1,6}?))(?:叫做?|名叫|的名字(?:叫做?|是))${NAME}${NAME_TAIL}$`, 'u'),
    build: (m) => {
      const who = m[1] ?? m[2]!;
      const value = m[3]!.trim();
      if (value === '' || NOT_A_NAME.test(value) || /名字|什么|啥/u.test(who)) return null;
      return relation(who, value);
    },
  },
  {
    id: 'zh.employer.role',
    kind: 'statement',
    re: /^我(?:现在|目前)?在(.{1,16}?)(?:当|做|担任)(.{1,10})$/u,
    build: (m) => (NOT_A_WORKPLACE.test(m[1]!) ? null : [slot('fact.employer', m[1]!), slot('fact.occupation', m[2]!)]),
  },
  {
    id: 'zh.employer.at',
    kind: 'statement',
    re: /^我(?:现在|目前|一直)?在(.{1,16}?)(?:工作|上班|任职|实习)(?:了)?$/u,
    build: (m) => {
      const place = m[1]!;
      if (NOT_A_WORKPLACE.test(place) || /^一家?(?:公司)?$/u.test(place)) return null;
      return isPlace(place) ? slot('fact.work_location', place) : slot('fact.employer', place);
    },
  },
  { id: 'zh.employer.joined', kind: 'statement', re: /^我(?:现在|目前)?(?:就职于|入职了?)(.{1,16})$/u, build: (m) => slot('fact.employer', m[1]!.replace(/了$/u, '')) },
  {
    id: 'zh.employer.left',
    kind: 'statement',
    re: /^我(?:已经|现在)?(?:不再在|不在|从)(.{1,16}?)(?:工作|上班|离职|辞职)了$/u,
    build: () => slot('fact.employer', null),
  },
  {
    id: 'zh.occupation.is',
    kind: 'statement',
    re: /^我(?:现在|目前)?是(?:一名|一个|一位|个|名)?(.{1,10}?)$/u,
    build: (m) => {
      const job = m[1]!.replace(/[。！!]+$/u, '');
      if (/人$/u.test(job) && isPlace(job.slice(0, -1))) return slot('fact.hometown', job.slice(0, -1));
      if (/^做(.+)的$/u.test(job)) return slot('fact.occupation', job.slice(1, -1));
      if (/^(?:素食者|素食主义者)$/u.test(job)) return slot('fact.diet', 'vegetarian');
      return PROFESSION_SUFFIX_ZH.test(job) && !/^(?:这|那|你|他|她)/u.test(job) ? slot('fact.occupation', job) : null;
    },
  },
  { id: 'zh.occupation.job', kind: 'statement', re: /^我(?:的)?(?:工作|职业)是(.{1,12})$/u, build: (m) => slot('fact.occupation', m[1]!.replace(/[。！!]+$/u, '')) },
  { id: 'zh.industry', kind: 'statement', re: /^我(?:现在|目前|一直)?从事(.{1,12}?)(?:工作|行业|这一行)?$/u, build: (m) => slot('fact.industry', m[1]!) },
  {
    id: 'zh.location.moved',
    kind: 'statement',
    re: /^我(?:已经|刚|最近)?(?:搬到了?|搬去了?)(.{1,12}?)(?:住|生活)?了?$/u,
    build: (m) => slot('fact.location', m[1]!),
  },
  {
    id: 'zh.location.left',
    kind: 'statement',
    re: /^我(?:已经|现在)?不(?:再)?住在(.{1,12}?)了$/u,
    build: () => slot('fact.location', null),
  },
  {
    id: 'zh.location.live',
    kind: 'statement',
    re: new RegExp(`^我${ADV}(?:住在|生活在|定居在)(.{1,12}?)$`, 'u'),
    build: (m) => (NOT_A_HOME.test(m[1]!) ? null : slot('fact.location', m[1]!)),
  },
  {
    // Bare 住 is also "住院" (in hospital): only a known place counts.
    id: 'zh.location.zhu',
    kind: 'statement',
    re: new RegExp(`^我${ADV}住(.{1,12}?)$`, 'u'),
    build: (m) => (isPlace(m[1]!) ? slot('fact.location', m[1]!) : null),
  },
  {
    // Bare 在 is also "I am doing" ("我在写代码"): only a known place counts.
    id: 'zh.location.in',
    kind: 'statement',
    re: new RegExp(`^我${ADV}在(.{1,12}?)(?:生活|居住|定居)?$`, 'u'),
    build: (m) => (isPlace(m[1]!) ? slot('fact.location', m[1]!) : null),
  },
  { id: 'zh.hometown', kind: 'statement', re: /^我(?:来自|老家(?:在|是))(.{1,12})$/u, build: (m) => slot('fact.hometown', m[1]!) },
  {
    id: 'zh.age',
    kind: 'statement',
    re: /^我(?:今年)?(\d{1,3}|[一二三四五六七八九十]{1,3})岁了?$/u,
    build: (m) => {
      const n = age(m[1]!);
      return n !== null && n >= 3 && n <= 120 ? slot('fact.age', n) : null;
    },
  },
  {
    id: 'zh.native-language',
    kind: 'statement',
    re: new RegExp(`^我(?:的)?母语是${LANG}$`, 'u'),
    build: (m) => slot('fact.native_language', languageCode(m[1]!)),
  },
  {
    id: 'zh.allergy',
    kind: 'statement',
    re: /^我(?:对)(.{1,10}?)(?:严重|很|有点)?过敏$/u,
    build: (m) => family('fact.allergy', m[1]!, { allergen: m[1]! }),
  },
  { id: 'zh.diet', kind: 'statement', re: /^我(?:一直|现在)?(?:吃素|吃全素)$/u, build: (m) => slot('fact.diet', m[0].includes('全') ? 'vegan' : 'vegetarian') },
  // ── likes and dislikes ───────────────────────────────────────────────────
  {
    id: 'zh.favorite',
    kind: 'statement',
    re: /^我(?:最喜欢|最爱)的(.{1,8}?)是(.{1,14})$/u,
    build: (m) => {
      const object = cleanZhObject(m[2]!);
      return object ? family('preference.favorite', m[1]!, { subject: m[1]!, object }) : null;
    },
  },
  {
    id: 'zh.reply.prefer-length',
    kind: 'statement',
    re: new RegExp(`^我${ADV}(?:喜欢|偏好|希望)(简洁|简短|详细)(?:一点|一些)?的(?:回答|回复|解释)$`, 'u'),
    build: (m) => slot('preference.reply.length', m[1] === '详细' ? 'detailed' : 'concise'),
  },
  {
    id: 'zh.dislike',
    kind: 'statement',
    re: new RegExp(`^我${ADV}(?:不太喜欢|不怎么喜欢|不再喜欢|不喜欢|不再爱|不爱|讨厌|受不了|反感|厌恶|不吃|不喝|不碰)(.{1,16})$`, 'u'),
    build: (m) => likes(m[1]!, 'dislike', RETRACT_ZH.test(m[0])),
  },
  {
    id: 'zh.quit',
    kind: 'statement',
    re: new RegExp(`^我${ADV}戒(?:掉)?了?(?!指)(.{1,8}?)了?$`, 'u'),
    build: (m) => likes(m[1]!, 'dislike', true),
  },
  {
    id: 'zh.like',
    kind: 'statement',
    re: new RegExp(`^我${ADV}(?:喜欢上了|爱上了|迷上了|喜欢|喜爱|热爱|偏爱|钟爱|爱)(.{1,16})$`, 'u'),
    build: (m) => likes(m[1]!, 'like'),
  },
  {
    id: 'zh.like.rather',
    kind: 'statement',
    re: new RegExp(`^比起.{1,10}?[，,]?我${ADV}更(?:喜欢|爱)(.{1,16})$`, 'u'),
    build: (m) => likes(m[1]!, 'like'),
  },
  { id: 'zh.like.interest', kind: 'statement', re: /^我对(.{1,12}?)(?:很|非常|特别|超|挺)?感兴趣$/u, build: (m) => likes(m[1]!, 'like') },
  {
    id: 'zh.like.switch',
    kind: 'statement',
    re: /^我?(?:现在)?(?:(?:改|转而)(喝|吃|用|听|看|玩)|(?:改成|换成|改用)(喝|吃|用|听|看|玩)?)(.{1,12})$/u,
    build: (m) => likes(`${m[1] ?? m[2] ?? ''}${m[3]!}`, 'like'),
  },
  // ── habits (category `pattern`) ──────────────────────────────────────────
  {
    id: 'zh.habit',
    kind: 'statement',
    re: /^我(?:平时|一般|通常|习惯|经常|总是|每天)(?:都)?(?:习惯)?(?!不|没|很少)(.{2,20})$/u,
    build: (m) => {
      const habit = m[1]!.replace(/[。！!]+$/u, '');
      return family('pattern.habit', habit, { habit });
    },
  },
];
