/**
 * What a rule claims, so two rules can be found to contradict each other (seed 003 "记忆冲突检测与解决").
 * A learned rule's claims come from its basis (pattern + pole); a rule a person wrote is read with a small
 * zh/en lexicon — "偏好长句" claims sentence-length: long, "对白不使用感叹号" claims exclamation: avoid in
 * dialogue. A rule the lexicon cannot read claims nothing and never conflicts.
 *
 *   claim = { dimension, pole, scene | null, skill | null }     null = applies everywhere
 *
 * Two claims contradict when the dimension is the same, the poles differ and they apply to some of the
 * same writing: equal scene (or one unqualified) and equal skill (or one unqualified). Between two
 * *learned* rules a narrower one nested in a broader one ("all: short" and "dialogue: long") is a
 * deliberate exception — distillation only keeps a narrower rule where it differs — so there only equal
 * or crossing groups conflict ("action scenes: short" and "polish: long" meet at polishing an action scene).
 */
import type { SceneType } from '../episodes/scene-type';
import { parsePattern, type BasisEntry } from './distill';

export interface Claim {
  dimension: string;
  pole: string;
  scene: SceneType | null;
  skill: string | null;
}

interface Cue {
  dimension: string;
  pole: string;
  pattern: RegExp;
  /** A complaint ("太啰嗦") says what is wrong: a negation before it does not turn it around. */
  complaint?: boolean;
}

const CUES: readonly Cue[] = [
  { dimension: 'sentence-length', pole: 'short', pattern: /短句|句子(?:要|更)?短|short(?:er)? sentences?/i },
  { dimension: 'sentence-length', pole: 'long', pattern: /长句|句子(?:要|更)?长|long(?:er)? sentences?/i },
  { dimension: 'length', pole: 'shorter', pattern: /太长|啰嗦|冗长|too long|verbose|wordy/i, complaint: true },
  { dimension: 'length', pole: 'longer', pattern: /太短|too short/i, complaint: true },
  { dimension: 'length', pole: 'shorter', pattern: /更短|简短|精简|shorter|more concise|brief/i },
  { dimension: 'length', pole: 'longer', pattern: /更长|更充实|扩写|longer|fuller|expand/i },
  { dimension: 'exclamation', pole: 'welcome', pattern: /感叹号|exclamation/i },
  { dimension: 'person', pole: 'first', pattern: /第一人称|first[- ]person/i },
  { dimension: 'person', pole: 'third', pattern: /第三人称|third[- ]person/i },
  { dimension: 'register', pole: 'colloquial', pattern: /口语|通俗|colloquial|casual|conversational/i },
  { dimension: 'register', pole: 'formal', pattern: /书面|文言|典雅|formal|literary tone/i },
  { dimension: 'ornate', pole: 'ornate', pattern: /华丽|辞藻|绚丽|ornate|flowery|florid|lush/i },
  { dimension: 'ornate', pole: 'plain', pattern: /简洁|朴素|平实|plain|concise style|spare/i },
];

/** A negation right before the cue turns it around (不用感叹号, avoid exclamation marks, no first person). */
const NEGATION = /(?:不要|不用|不使用|避免|禁止|别用|少用|不|no|avoid|never|don't|do not|without)\s*(?:使用|用|任何)?\s*$/i;

const OPPOSITE: Record<string, string> = {
  short: 'long',
  long: 'short',
  shorter: 'longer',
  longer: 'shorter',
  welcome: 'avoid',
  avoid: 'welcome',
  first: 'third',
  third: 'first',
  colloquial: 'formal',
  formal: 'colloquial',
  ornate: 'plain',
  plain: 'ornate',
};

const SCENE_CUES: readonly [SceneType, RegExp][] = [
  ['action', /动作|打斗|战斗|action|fight/i],
  ['dialogue', /对白|对话|dialogue/i],
  ['description', /描写|景物|description/i],
  ['introspection', /内心|独白|monologue|introspect/i],
  ['exposition', /背景交代|设定介绍|exposition/i],
];

const SKILL_CUES: readonly [string, RegExp][] = [
  ['continue', /续写|\bcontinu/i],
  ['polish', /润色|\bpolish/i],
  ['summarize', /摘要|\bsummar/i],
];

/** The claims of a rule a person wrote (or a model phrased without a basis). */
export function claimsOfText(text: string): Claim[] {
  const scene = SCENE_CUES.find(([, re]) => re.test(text))?.[0] ?? null;
  const skill = SKILL_CUES.find(([, re]) => re.test(text))?.[0] ?? null;
  const out: Claim[] = [];
  const seen = new Set<string>();
  for (const cue of CUES) {
    const m = cue.pattern.exec(text);
    if (!m) continue;
    const before = text.slice(Math.max(0, m.index - 8), m.index);
    const pole = !cue.complaint && NEGATION.test(before) ? (OPPOSITE[cue.pole] ?? cue.pole) : cue.pole;
    const id = `${cue.dimension}:${pole}`;
    // "简洁" is both a plain style and a shorter result; the first reading wins per dimension.
    if ([...seen].some((s) => s.startsWith(`${cue.dimension}:`))) continue;
    seen.add(id);
    out.push({ dimension: cue.dimension, pole, scene, skill });
  }
  return out;
}

/** The claims of a learned rule: one per basis pattern. */
export function claimsOfBasis(basis: readonly BasisEntry[]): Claim[] {
  return basis.flatMap((b) => {
    const p = parsePattern(b.pattern);
    return p ? [{ dimension: p.hypothesis, pole: b.pole, scene: p.group.scene, skill: p.group.skill }] : [];
  });
}

export function claimsOf(rule: { rule: string; source: 'user' | 'learned'; basis: readonly BasisEntry[] }): Claim[] {
  return rule.source === 'learned' && rule.basis.length > 0 ? claimsOfBasis(rule.basis) : claimsOfText(rule.rule);
}

const overlaps = <T>(a: T | null, b: T | null) => a === null || b === null || a === b;
/** x's group contains y's (x is as broad or broader on both qualifiers). */
const contains = (x: Claim, y: Claim) => (x.scene === null || x.scene === y.scene) && (x.skill === null || x.skill === y.skill);

/** The first pair of claims that contradict, or null. `bothLearned`: nested groups are exceptions. */
export function contradiction(a: readonly Claim[], b: readonly Claim[], opts: { bothLearned: boolean }): { a: Claim; b: Claim } | null {
  for (const x of a) {
    for (const y of b) {
      if (x.dimension !== y.dimension || x.pole === y.pole || x.dimension === 'skill-choice') continue;
      if (!overlaps(x.scene, y.scene) || !overlaps(x.skill, y.skill)) continue;
      const same = x.scene === y.scene && x.skill === y.skill;
      if (opts.bothLearned && !same && (contains(x, y) || contains(y, x))) continue;
      return { a: x, b: y };
    }
  }
  return null;
}

/** A claim as one string (L2 item meta, for scope masking across a project and a global rule). */
export function claimKey(c: Claim): string {
  return `${c.dimension}:${c.pole}@${c.scene ?? '*'}/${c.skill ?? '*'}`;
}

export function parseClaimKey(key: string): Claim | null {
  const m = /^([a-z-]+):([a-z:-]+)@([a-z*]+)\/([a-z0-9*-]+)$/.exec(key);
  if (!m) return null;
  return { dimension: m[1] as string, pole: m[2] as string, scene: m[3] === '*' ? null : (m[3] as SceneType), skill: m[4] === '*' ? null : (m[4] as string) };
}
