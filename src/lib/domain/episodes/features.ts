/**
 * Style features of a passage (zh and en), the numbers distillation compares (seed 003 "模式提取（统计显著的
 * 偏好模式）") and the ones an episode keeps after compression (003 "压缩保留 … 风格特征"). Numbers only:
 * an episode's features say how a text reads, never what it says.
 *
 *   units          CJK characters + Latin words (a sentence of 12 units is short in either language)
 *   sentence       mean units per sentence
 *   exclaim        share of sentences with ! / ！
 *   firstPerson    share of the narration's sentences with a person pronoun that say 我/我们/I/we…, null with none
 *   colloquial     colloquial markers per 100 units (吧 呢 啊 嘛 啦 咱 …; gonna, yeah, contractions)
 *   literary       literary markers per 100 units (之 乎 矣 亦 其 遂 乃 …; thus, whom, hence …)
 *   ornate         ornament per 100 units (的/地 chains, reduplication, 四字 idioms; -ly adverbs, adjective runs)
 *   cjk            share of units that are CJK (decides 字 or words in a rule's text)
 */
import { splitSentences } from '../text/sentences';

export interface StyleFeatures {
  units: number;
  sentence: number;
  exclaim: number;
  firstPerson: number | null;
  colloquial: number;
  literary: number;
  ornate: number;
  cjk: number;
}

const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /[A-Za-z][A-Za-z'’-]*/g;

const ZH_FIRST = ['我们', '咱们', '我', '咱', '俺'];
const ZH_THIRD = ['他们', '她们', '它们', '他', '她'];
const EN_FIRST = new Set(['i', 'me', 'my', 'mine', 'we', 'us', 'our', 'ours', 'myself']);
const EN_THIRD = new Set(['he', 'she', 'him', 'her', 'his', 'hers', 'they', 'them', 'their', 'himself', 'herself']);
const ZH_COLLOQUIAL = ['吧', '呢', '啊', '嘛', '啦', '呀', '哈', '咱', '俺', '甭', '咋', '整', '挺', '贼', '倍儿', '得了', '没事儿'];
/** Classical particles; 之 and 其 only in their classical uses (之后, 其中, 其实 are modern). */
const ZH_LITERARY = ['之乎', '者也', '矣', '亦', '遂', '乃', '焉', '哉', '兮', '然则', '故而', '抑或', '之于', '其为', '何以'];
const EN_COLLOQUIAL = new Set(['gonna', 'wanna', 'yeah', 'yep', 'nope', 'kinda', 'ok', 'okay', 'hey', 'guys', 'stuff', 'pretty', 'ain’t', "ain't"]);
const EN_LITERARY = new Set(['thus', 'whom', 'hence', 'thereby', 'wherein', 'whereupon', 'henceforth', 'albeit', 'upon', 'amidst', 'whilst', 'thee', 'thou']);
/** A four-character run with a 然/地/的-free classical rhythm is too loose to detect; reduplication (静静, 缓缓) is not. */
const ZH_REDUP = /(\p{Script=Han})\1/gu;
const ZH_DE = /的|地/gu;

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

function unitsOf(text: string): { han: number; words: string[] } {
  return { han: text.match(HAN)?.length ?? 0, words: (text.match(LATIN_WORD) ?? []).map((w) => w.toLowerCase()) };
}

/** Non-overlapping occurrences of each cue, summed (what `text.split(cue).length - 1` counts, without the arrays). */
const count = (text: string, cues: readonly string[]) => {
  let n = 0;
  for (const c of cues) for (let at = text.indexOf(c); at !== -1; at = text.indexOf(c, at + c.length)) n++;
  return n;
};

/**
 * Pronoun counts without double-counting 我们 as 我: one scan, the longer cue first at each place (the same counts
 * as removing 我们 before counting 我: every two-character cue is a one-character cue + 们, and 们 starts none).
 */
const ZH_PRONOUN = new RegExp([...ZH_FIRST, ...ZH_THIRD].sort((a, b) => b.length - a.length).join('|'), 'gu');
const ZH_FIRST_SET = new Set(ZH_FIRST);
function zhPronouns(text: string): { first: number; third: number } {
  let first = 0;
  let third = 0;
  for (const m of text.matchAll(ZH_PRONOUN)) {
    if (ZH_FIRST_SET.has(m[0])) first++;
    else third++;
  }
  return { first, third };
}

export function styleFeatures(text: string): StyleFeatures {
  const { han, words } = unitsOf(text);
  const units = han + words.length;
  if (units === 0) return { units: 0, sentence: 0, exclaim: 0, firstPerson: null, colloquial: 0, literary: 0, ornate: 0, cjk: 0 };
  // Quoted speech is dialogue's business; person counts the narration (a first-person narrator quoting "he").
  const narration = text.replace(/“[^”]*”|「[^」]*」|"[^"\n]*"/gu, ' ');
  const parts = splitSentences(text);
  const sentences = parts.map((s) => {
    const u = unitsOf(s);
    return u.han + u.words.length;
  }).filter((n) => n > 0);
  // Person: of the narration's sentences that name someone, the share that says 我/I. A first-person
  // narrator still writes "她说", a third-person one (outside quotes) almost never writes 我.
  let named = 0;
  let firstNamed = 0;
  for (const s of splitSentences(narration)) {
    const zh = zhPronouns(s);
    const en = unitsOf(s).words;
    const first = zh.first + en.filter((w) => EN_FIRST.has(w)).length;
    const third = zh.third + en.filter((w) => EN_THIRD.has(w)).length;
    if (first + third > 0) named++;
    if (first > 0) firstNamed++;
  }
  const per100 = 100 / Math.max(units, 20);
  const contractions = words.filter((w) => /[a-z](?:'|’)(?:s|re|ll|ve|d|t|m)$/.test(w)).length;
  const lyAdverbs = words.filter((w) => w.length > 4 && w.endsWith('ly')).length;
  return {
    units,
    sentence: round(sentences.length ? sentences.reduce((a, b) => a + b, 0) / sentences.length : units, 1),
    exclaim: round(parts.filter((s) => /[!！]/u.test(s)).length / Math.max(1, sentences.length)),
    firstPerson: named === 0 ? null : round(firstNamed / named),
    colloquial: round((count(text, ZH_COLLOQUIAL) + words.filter((w) => EN_COLLOQUIAL.has(w)).length + contractions) * per100),
    literary: round((count(text, ZH_LITERARY) + words.filter((w) => EN_LITERARY.has(w)).length) * per100),
    ornate: round(((text.match(ZH_DE)?.length ?? 0) + (text.match(ZH_REDUP)?.length ?? 0) * 2 + lyAdverbs * 2) * per100),
    cjk: round(han / units),
  };
}
