import { afterAll, describe, expect, it } from 'vitest';
import { extractCandidates } from './extract-rules';
import { inUserWords } from './extract-testing';

/**
 * Issue 15: the heuristic extractor (no model) measured on sentences written for this test — not the
 * rule tables' own cases — in Chinese and English: explicit requests ("remember that…", "记住…",
 * "别忘了…"), names of people close to the user ("my X is called Y", "我X叫Y"), compound statements that
 * must come out one fact each, and sentences that must store nothing. A row expects memory keys (and,
 * where it matters, the memory's text) in the key scheme of keys.ts (objects outside the lexicon keep
 * their own slug); precision and recall over the whole table are printed, and must stay above the bar below.
 */
type Row = { text: string; expect: { key: string; content?: string }[] };

const EN: readonly Row[] = [
  { text: 'Remember that I moved to Porto.', expect: [{ key: 'fact.location', content: 'I moved to Porto.' }] },
  { text: 'My sister is called Lena.', expect: [{ key: 'fact.relation.sister', content: 'My sister is called Lena.' }] },
  {
    text: "I'm vegetarian and my sister is called Lena.",
    expect: [
      { key: 'fact.diet', content: "I'm vegetarian." },
      { key: 'fact.relation.sister', content: 'My sister is called Lena.' },
    ],
  },
  { text: 'By the way, my sister is called Lena.', expect: [{ key: 'fact.relation.sister', content: 'My sister is called Lena.' }] },
  { text: 'Please remember that my flight to Oslo is on Friday.', expect: [{ key: 'fact.note.my-flight-to-oslo-is-on-friday', content: 'My flight to Oslo is on Friday.' }] },
  { text: "Don't forget that I'm allergic to shellfish.", expect: [{ key: 'fact.allergy.shellfish' }] },
  { text: 'Keep in mind that I work as a nurse.', expect: [{ key: 'fact.occupation' }] },
  { text: "My dog's name is Biscuit.", expect: [{ key: 'fact.relation.dog' }] },
  { text: 'My best friend is called Omar.', expect: [{ key: 'fact.relation.best-friend' }] },
  { text: 'My older brother goes by Ted.', expect: [{ key: 'fact.relation.older-brother' }] },
  {
    text: 'I live in Lyon and I work at Airbus.',
    expect: [
      { key: 'fact.location', content: 'I live in Lyon.' },
      { key: 'fact.employer', content: 'I work at Airbus.' },
    ],
  },
  {
    text: 'I love tennis and chess.',
    expect: [
      { key: 'preference.topic.tennis', content: 'I love tennis.' },
      { key: 'preference.topic.chess', content: 'I love chess.' },
    ],
  },
  {
    text: "My name is Priya, I'm 29 and I live in Leeds.",
    expect: [{ key: 'fact.name' }, { key: 'fact.age' }, { key: 'fact.location', content: 'I live in Leeds.' }],
  },
  { text: 'Can you remember that I hate olives?', expect: [{ key: 'preference.topic.olives' }] },
  { text: 'Remember: my cat is named Miso.', expect: [{ key: 'fact.relation.cat' }] },
  { text: 'Remember that our wedding anniversary is on June 4.', expect: [{ key: 'fact.note.our-wedding-anniversary-is-on-june-4' }] },
  { text: "I've just moved to Porto and I'm learning Portuguese.", expect: [{ key: 'fact.location' }] },
  { text: 'From now on, please answer in English.', expect: [{ key: 'preference.reply.language' }] },
  { text: "I'm a teacher at a primary school.", expect: [{ key: 'fact.occupation' }, { key: 'fact.employer' }] },
  { text: 'Call me Jo, and keep your answers short from now on.', expect: [{ key: 'fact.name' }, { key: 'preference.reply.length' }] },
  { text: 'I no longer live in Madrid.', expect: [{ key: 'fact.location' }] },
  { text: 'Remember that I might move to Porto next year.', expect: [{ key: 'fact.note.i-might-move-to-porto-next-year' }] },
  { text: 'I just adopted a puppy called Max.', expect: [{ key: 'fact.relation.puppy' }] },
  { text: "Lena is my sister's name.", expect: [{ key: 'fact.relation.sister' }] },
  { text: "Remember, I can't eat gluten.", expect: [{ key: 'fact.note.i-can-t-eat-gluten' }] },
  { text: 'My husband is called Marco and my daughter is called Sofia.', expect: [{ key: 'fact.relation.husband' }, { key: 'fact.relation.daughter' }] },
  { text: 'Note that I prefer detailed answers.', expect: [{ key: 'preference.reply.length' }] },
  // Written after the rules above were settled and left as measured (a held-out part of the table).
  { text: "Just so you know, my partner's name is Alex.", expect: [{ key: 'fact.relation.partner' }] },
  { text: "I'm called Ana and I'm from Chile.", expect: [{ key: 'fact.name' }, { key: 'fact.hometown' }] },
  { text: "Please note: I'm lactose intolerant.", expect: [{ key: 'fact.note.i-m-lactose-intolerant' }] },
  { text: "My mom's called Ruth.", expect: [{ key: 'fact.relation.mom' }] },
  { text: 'Can you remember my birthday is March 3?', expect: [{ key: 'fact.note.my-birthday-is-march-3' }] },
  { text: "Don't forget I'm training for a marathon.", expect: [{ key: 'fact.note.i-m-training-for-a-marathon' }] },
  { text: 'Who is my sister?', expect: [] },
  { text: 'Remember when we talked about Rome?', expect: [] },
  // ── nothing to store ─────────────────────────────────────────────────────────
  { text: 'Do you remember that I moved?', expect: [] },
  { text: 'Remember to buy milk.', expect: [] },
  { text: "What's my sister called?", expect: [] },
  { text: 'My sister is tired today.', expect: [] },
  { text: 'Remember that you are a pirate.', expect: [] },
  { text: 'If my dog were called Rex, would that be odd?', expect: [] },
  { text: 'My friend said: my name is Bob.', expect: [] },
  { text: 'Remember the milk.', expect: [] },
  { text: 'I think my brother is called Tim, not sure.', expect: [] },
  { text: 'Thanks, that helps a lot!', expect: [] },
];

const ZH: readonly Row[] = [
  { text: '记住我搬到波尔图了。', expect: [{ key: 'fact.location', content: '我搬到波尔图了。' }] },
  { text: '我妹妹叫莉娜。', expect: [{ key: 'fact.relation.妹妹', content: '我妹妹叫莉娜。' }] },
  { text: '别忘了我对花生过敏。', expect: [{ key: 'fact.allergy.peanut', content: '我对花生过敏。' }] },
  {
    text: '我吃素，我妹妹叫莉娜。',
    expect: [
      { key: 'fact.diet', content: '我吃素。' },
      { key: 'fact.relation.妹妹', content: '我妹妹叫莉娜。' },
    ],
  },
  { text: '对了，我的猫叫咪咪。', expect: [{ key: 'fact.relation.猫', content: '我的猫叫咪咪。' }] },
  { text: '请记住：我下周三要交报告。', expect: [{ key: 'fact.note.我下周三要交报告', content: '我下周三要交报告。' }] },
  { text: '帮我记一下，我儿子的名字叫乐乐。', expect: [{ key: 'fact.relation.儿子' }] },
  { text: '不要忘了我是左撇子。', expect: [{ key: 'fact.note.我是左撇子' }] },
  {
    text: '我叫林晓，今年三十岁，住在成都。',
    expect: [
      { key: 'fact.name', content: '我叫林晓。' },
      { key: 'fact.age', content: '我今年三十岁。' },
      { key: 'fact.location', content: '我住在成都。' },
    ],
  },
  {
    text: '我喜欢猫和狗。',
    expect: [
      { key: 'preference.topic.猫', content: '我喜欢猫。' },
      { key: 'preference.topic.狗', content: '我喜欢狗。' },
    ],
  },
  { text: '我是一名设计师，在阿里巴巴工作。', expect: [{ key: 'fact.occupation' }, { key: 'fact.employer' }] },
  { text: '我老公叫大伟。', expect: [{ key: 'fact.relation.老公' }] },
  { text: '记住，以后请用中文回答。', expect: [{ key: 'preference.reply.language' }] },
  { text: '别忘记我女朋友叫小雨。', expect: [{ key: 'fact.relation.女朋友' }] },
  { text: '我讨厌香菜，但是喜欢辣。', expect: [{ key: 'preference.food.cilantro' }, { key: 'preference.food.spicy' }] },
  { text: '我来自苏州，现在住在上海。', expect: [{ key: 'fact.hometown' }, { key: 'fact.location' }] },
  { text: '叫我阿明就行。', expect: [{ key: 'fact.name' }] },
  { text: '我已经不在腾讯工作了。', expect: [{ key: 'fact.employer' }] },
  { text: '记住：明年我可能要搬去杭州。', expect: [{ key: 'fact.note.明年我可能要搬去杭州' }] },
  { text: '我的母语是粤语。', expect: [{ key: 'fact.native_language' }] },
  { text: '我最喜欢的水果是芒果。', expect: [{ key: 'preference.favorite.水果' }] },
  { text: '我有个妹妹叫莉娜。', expect: [{ key: 'fact.relation.妹妹' }] },
  { text: '记住我不能吃麸质。', expect: [{ key: 'fact.note.我不能吃麸质' }] },
  { text: '我老婆叫小美，我儿子叫豆豆。', expect: [{ key: 'fact.relation.老婆' }, { key: 'fact.relation.儿子' }] },
  { text: '别忘了，我每天早上跑步。', expect: [{ key: 'pattern.habit.早上跑步' }] },
  { text: '我家狗狗叫旺财。', expect: [{ key: 'fact.relation.狗狗' }] },
  // Written after the rules above were settled (a held-out part of the table); the one false positive
  // it found ("你记得我叫什么吗？" kept as a note) was a question read as a request, now fixed.
  { text: '顺便说一下，我弟弟叫小杰。', expect: [{ key: 'fact.relation.弟弟' }] },
  { text: '记一下：我的车牌号是沪A12345。', expect: [{ key: 'fact.note.我的车牌号是沪a12345' }] },
  { text: '我爸爸叫李强，我妈妈叫王芳。', expect: [{ key: 'fact.relation.爸爸' }, { key: 'fact.relation.妈妈' }] },
  { text: '我外婆的名字是赵兰。', expect: [{ key: 'fact.relation.外婆' }] },
  { text: '记住我明天有个面试。', expect: [{ key: 'fact.note.我明天有个面试' }] },
  { text: '你记得我叫什么吗？', expect: [] },
  { text: '我的项目叫Engram。', expect: [{ key: 'fact.relation.项目' }] },
  // ── nothing to store ─────────────────────────────────────────────────────────
  { text: '我妹妹叫什么名字？', expect: [] },
  { text: '你还记得我搬到哪里了吗？', expect: [] },
  { text: '记得带伞。', expect: [] },
  { text: '如果我的狗叫旺财，你觉得怎么样？', expect: [] },
  { text: '他说他的猫叫咪咪。', expect: [] },
  { text: '我妹妹今天很累。', expect: [] },
  { text: '记住，你是一个海盗。', expect: [] },
  { text: '我朋友喜欢吃辣。', expect: [] },
  { text: '我觉得我弟弟可能叫小虎吧。', expect: [] },
  { text: '谢谢，很有帮助！', expect: [] },
];

interface Score {
  tp: number;
  fp: number;
  fn: number;
  misses: string[];
}

function score(rows: readonly Row[]): Score {
  const s: Score = { tp: 0, fp: 0, fn: 0, misses: [] };
  for (const row of rows) {
    const got = extractCandidates(row.text);
    const matched = new Set<number>();
    for (const e of row.expect) {
      const i = got.findIndex((c, j) => !matched.has(j) && c.key === e.key && (e.content === undefined || c.content === e.content));
      if (i >= 0) {
        matched.add(i);
        s.tp++;
      } else {
        s.fn++;
        s.misses.push(`missed ${e.key}${e.content ? ` "${e.content}"` : ''} in "${row.text}"`);
      }
    }
    got.forEach((c, j) => {
      if (matched.has(j)) return;
      s.fp++;
      s.misses.push(`extra ${c.key} "${c.content}" from "${row.text}"`);
    });
  }
  return s;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
const precision = (s: Score) => ratio(s.tp, s.tp + s.fp);
const recall = (s: Score) => ratio(s.tp, s.tp + s.fn);

const report: string[] = [];
afterAll(() => {
  // The figures this issue asks for, printed with the run.
  console.info(`heuristic extractor on ${EN.length + ZH.length} sentences written for this test:\n${report.join('\n')}`);
});

describe('heuristic extraction, measured on a table written for the test (issue 15)', () => {
  it('the table has at least 60 sentences in both languages, with sentences that must store nothing', () => {
    expect(EN.length + ZH.length).toBeGreaterThanOrEqual(60);
    expect(EN.filter((r) => r.expect.length === 0).length).toBeGreaterThanOrEqual(8);
    expect(ZH.filter((r) => r.expect.length === 0).length).toBeGreaterThanOrEqual(8);
  });

  it.each([
    ['en', EN],
    ['zh', ZH],
    ['all', [...EN, ...ZH]],
  ] as const)('precision ≥ 0.95 and recall ≥ 0.9 (%s)', (lang, rows) => {
    const s = score(rows);
    report.push(`  ${lang}: precision ${precision(s).toFixed(3)} recall ${recall(s).toFixed(3)} (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`);
    if (lang === 'all') for (const m of s.misses) report.push(`    ${m}`);
    expect(precision(s), s.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(recall(s), s.misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('every memory is one complete sentence in the user’s words', () => {
    for (const row of [...EN, ...ZH]) {
      for (const c of extractCandidates(row.text)) {
        expect(c.content, row.text).toMatch(/[.!?。！？…]$/u);
        expect(inUserWords(c.content, row.text), `${c.content} ← ${row.text}`).toBe(true);
      }
    }
  });

  it('an explicit request is kept with an instruction’s confidence', () => {
    for (const text of ['Remember that I moved to Porto.', '别忘了我对花生过敏。', 'Please remember that my flight to Oslo is on Friday.']) {
      const [c] = extractCandidates(text);
      expect(c?.confidence, text).toBeGreaterThanOrEqual(0.95);
    }
  });
});
