/**
 * Preference learning from feedback (seed 004 "采纳/拒绝触发偏好信号入库", seed 003 "模式提取（统计显著的
 * 偏好模式）"): a small statistical learner, pure and deterministic. Each hypothesis turns one feedback
 * event into a vote for one of two directions; the majority direction becomes a rule whose confidence is
 * the lower bound of the Wilson score interval of its share of the votes:
 *
 *   hypothesis        a vote for A                                   a vote for B
 *   length            accept shorter / reject longer (than input)   accept longer / reject shorter
 *   exclamation       accept without ! / reject with !              accept with ! / reject without !
 *   sentence length   accepted below the midpoint / rejected above  the reverse
 *
 * Thresholds (documented in docs/design/03-user-preference-learning.md):
 *   - at least MIN_VOTES votes, and a confidence of at least MIN_CONFIDENCE, before a rule is proposed;
 *   - "shorter"/"longer" means a length ratio below 0.9 / above 1.1 (in between: no vote);
 *   - the exclamation hypothesis needs at least MIN_CONTRAST outputs that had an exclamation mark;
 *   - sentence length needs 3 accepted and 2 rejected outputs and means at least 20 % apart.
 * `partial` counts as a (weak) accept: the user kept part of the output.
 */
import { splitSentences } from '../../domain/text/sentences';
import type { FeedbackFeatures, StoredFeedback } from '../store/feedback-repo';
import type { RuleCategory } from './types';

export const MIN_VOTES = 5;
export const MIN_CONFIDENCE = 0.6;
export const MIN_CONTRAST = 2;
const Z = 1.28; // one-sided 90 %: a cautious lower bound for small samples
const SHORTER = 0.9;
const LONGER = 1.1;

export interface RuleProposal {
  key: string;
  category: RuleCategory;
  rule: string;
  confidence: number;
  supporting: string[];
  contradicting: string[];
}

const codePoints = (s: string) => Array.from(s).length;

/** Features of one output (what the user kept, or what was rejected); numbers only. */
export function computeFeatures(opts: { text: string | undefined; inputChars: number | null }): FeedbackFeatures {
  const text = opts.text?.trim();
  if (!text) return {};
  const sentences = splitSentences(text);
  const out: FeedbackFeatures = { exclamation: /[!！]/u.test(text) };
  if (sentences.length > 0) out.sentenceLength = Math.round((sentences.reduce((n, s) => n + codePoints(s), 0) / sentences.length) * 10) / 10;
  if (opts.inputChars && opts.inputChars > 0) out.lengthRatio = Math.round((codePoints(text) / opts.inputChars) * 1000) / 1000;
  return out;
}

/** Lower bound of the Wilson score interval for k successes in n trials. */
export function wilsonLower(k: number, n: number, z = Z): number {
  if (n === 0) return 0;
  const p = k / n;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

const SKILL_LABEL: Record<string, string> = {
  chat: '对话 chat',
  continue: '续写 continue',
  polish: '润色 polish',
  summarize: '摘要 summarize',
  'consistency-check': '一致性检查 consistency-check',
};

type Vote = 'a' | 'b' | null;
const positive = (e: StoredFeedback) => e.action !== 'reject';

function tally(opts: {
  events: readonly StoredFeedback[];
  vote: (e: StoredFeedback) => Vote;
  key: string;
  category: RuleCategory;
  text: (dir: 'a' | 'b') => string;
}): RuleProposal | null {
  const a: string[] = [];
  const b: string[] = [];
  for (const e of opts.events) {
    const v = opts.vote(e);
    if (v === 'a') a.push(e.id);
    else if (v === 'b') b.push(e.id);
  }
  const n = a.length + b.length;
  if (n < MIN_VOTES) return null;
  const dir = a.length >= b.length ? 'a' : 'b';
  const [supporting, contradicting] = dir === 'a' ? [a, b] : [b, a];
  const confidence = Math.round(wilsonLower(supporting.length, n) * 100) / 100;
  if (confidence < MIN_CONFIDENCE) return null;
  return { key: opts.key, category: opts.category, rule: opts.text(dir), confidence, supporting, contradicting };
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * The rules the events support, one per hypothesis at most. `checkpoint` is called between hypotheses
 * (the caller's time budget throws TIMEOUT there).
 */
export function learnPreferences(opts: { skillId: string; events: readonly StoredFeedback[]; checkpoint: () => void }): RuleProposal[] {
  const { skillId, events, checkpoint } = opts;
  const label = SKILL_LABEL[skillId] ?? skillId;
  const out: RuleProposal[] = [];
  const push = (p: RuleProposal | null) => {
    if (p) out.push(p);
    checkpoint();
  };
  checkpoint();
  push(
    tally({
      events,
      key: `skill.${skillId}.length`,
      category: 'structure',
      vote: (e) => {
        const r = e.features.lengthRatio;
        if (r === undefined || (r >= SHORTER && r <= LONGER)) return null;
        const shorter = r < SHORTER;
        return positive(e) === shorter ? 'a' : 'b';
      },
      text: (d) =>
        d === 'a' ? `${label}：偏好比原文更短的结果 · prefers results shorter than the original` : `${label}：偏好比原文更长、更充实的结果 · prefers results longer than the original`,
    }),
  );
  const withMark = events.filter((e) => e.features.exclamation === true).length;
  push(
    withMark < MIN_CONTRAST
      ? null
      : tally({
          events,
          key: `skill.${skillId}.exclamation`,
          category: 'style',
          vote: (e) => (e.features.exclamation === undefined ? null : positive(e) !== e.features.exclamation ? 'a' : 'b'),
          text: (d) => (d === 'a' ? `${label}：避免使用感叹号 · avoid exclamation marks` : `${label}：可以用感叹号加强语气 · exclamation marks are welcome`),
        }),
  );
  const lengths = (keep: boolean) => events.filter((e) => positive(e) === keep && e.features.sentenceLength !== undefined).map((e) => e.features.sentenceLength as number);
  const accepted = lengths(true);
  const rejected = lengths(false);
  if (accepted.length >= 3 && rejected.length >= 2) {
    const [ma, mr] = [mean(accepted), mean(rejected)];
    const mid = (ma + mr) / 2;
    // Rounded to 5 so the rule's text (and the prompt prefix) does not move with every new event.
    const shown = Math.max(5, Math.round(mid / 5) * 5);
    if (Math.abs(ma - mr) / Math.max(ma, mr) >= 0.2) {
      push(
        tally({
          events,
          key: `skill.${skillId}.sentence-length`,
          category: 'pacing',
          vote: (e) => {
            const len = e.features.sentenceLength;
            if (len === undefined) return null;
            return positive(e) === len < mid ? 'a' : 'b';
          },
          text: (d) =>
            d === 'a'
              ? `${label}：偏好短句（平均 < ${shown} 字）· prefers short sentences (under ${shown} characters on average)`
              : `${label}：偏好较长的句子（平均 ≥ ${shown} 字）· prefers longer sentences (${shown}+ characters on average)`,
        }),
      );
    }
  }
  return out;
}
