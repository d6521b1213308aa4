/**
 * Words that frame a request rather than name its topic (issue 8, round 2): "Can you *recommend* some *ideas*…",
 * "I was *thinking* of *trying* a new sourdough recipe", "What am I *currently* working on?". They are searched
 * (a turn that uses them may still be the one), but at `frameWeight` of a topic word: otherwise a turn that repeats
 * the frame ("I'm thinking of trying new bread flavours, any recommendations?") outranks the one that holds the
 * topic ("I've started baking my own sourdough"). Dropping them as stop words cost recall where such a word is the
 * topic ("What advice does Vera give Ned?"), so they keep half a topic word's weight.
 *
 * Three closed classes, matched as written (no stemming: "interests" is a topic, "interested" a frame):
 *   asking for help        advice, tips, suggest(ion), recommend(ation), ideas, help, options …  建议 推荐 意见 …
 *   the asker's intention  thinking, wondering, considering, trying, looking, hoping, interested, curious
 *   the present            current(ly), lately, latest, nowadays ("now", "recently" are stop words already)
 * Light verbs and their other forms (think, try, want, need) are stop words (domain/text/stopwords).
 */
const FRAME_WORDS: ReadonlySet<string> = new Set([
  // asking for help
  'advice', 'advise', 'advising', 'tip', 'tips', 'suggest', 'suggests', 'suggested', 'suggesting', 'suggestion', 'suggestions',
  'recommend', 'recommends', 'recommended', 'recommending', 'recommendation', 'recommendations', 'idea', 'ideas', 'help',
  'helpful', 'guidance', 'option', 'options',
  '建议', '推荐', '意见', '想法', '办法', '帮忙', '帮助', '主意',
  // the asker's intention
  'thinking', 'wondering', 'wonder', 'considering', 'consider', 'trying', 'looking', 'hoping', 'interested',
  'interesting', 'curious',
  // the present
  'current', 'currently', 'lately', 'latest', 'nowadays', '目前', '现在',
]);

export function isFrameWord(word: string): boolean {
  return FRAME_WORDS.has(word.toLowerCase());
}
