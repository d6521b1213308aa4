import type { Emotion } from './types';

/**
 * Seed 001 `last_emotion` without a model: a small zh/en lexicon. Order matters: the first emotion
 * whose cue appears wins, stronger feelings first. 'neutral' when nothing matches.
 */
const CUES: readonly [Emotion, RegExp][] = [
  ['anger', /生气|气死|愤怒|火大|受够了|\b(angry|furious|pissed|livid|fed up)\b/i],
  ['frustration', /烦死|好烦|郁闷|崩溃|又失败|还是不行|搞不定|\b(frustrat\w*|annoy\w*|still (broken|failing|not working)|doesn'?t work|keeps? failing)\b/i],
  ['anxiety', /担心|焦虑|紧张|害怕|着急|\b(worried|anxious|nervous|scared|afraid|stressed)\b/i],
  ['sadness', /难过|伤心|失落|沮丧|遗憾|\b(sad|upset|depressed|heartbroken|disappointed)\b/i],
  ['gratitude', /谢谢|感谢|多谢|辛苦了|\b(thanks|thank you|thx|appreciate)\b/i],
  ['joy', /开心|高兴|太好了|太棒了|哈哈|耶|\b(great|awesome|happy|glad|love it|excited|yay|perfect)\b/i],
  ['surprise', /居然|竟然|没想到|天哪|\b(wow|surprised|unexpected|no way)\b/i],
];

export function detectEmotion(text: string): Emotion {
  for (const [emotion, cue] of CUES) if (cue.test(text)) return emotion;
  return 'neutral';
}
