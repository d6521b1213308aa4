/**
 * A turn's statements about its writer (issue 8, round 2): "I've had Miso for about 8 months", "my road bike has
 * been running great since …" — first-person sentences that are not questions. A question about a person is best
 * answered where that person says something about themselves in the question's words; a long reply that uses the
 * same words in passing, or the person's own request ("Can you recommend toys for my Miso?"), is weaker evidence.
 *
 * `statementText` keeps those sentences of a turn (the second stage measures how much of the question they cover).
 * A cheap split (sentence ends . ! ? 。！？ and line breaks): this runs on every turn of the head.
 */
const SENTENCES = /[^.!?。！？\n]+(?:[.!?。！？]+|\n|$)/gu;
/**
 * The writer as subject or owner: I, my, we, our … (I'm, we've: the pronoun ends at the apostrophe). Not "me"/"us":
 * as objects they mostly make requests ("help me write…", "tell us about…"). ASCII word bounds, no Unicode flag.
 */
const FIRST_PERSON_EN = /\b(?:i|my|mine|myself|we|our|ours|ourselves)\b/i;
/** 我 (我们), but not as the object of a request or preposition: 帮我, 给我, 告诉我, 让我, 跟我 … */
const FIRST_PERSON_ZH = /(?<![帮给让叫教诉陪跟和对向替请])我/u;
const QUESTION_END = /[?？]\s*$/u;

export function isFirstPerson(sentence: string): boolean {
  return FIRST_PERSON_EN.test(sentence) || (sentence.includes('我') && FIRST_PERSON_ZH.test(sentence));
}

/** The turn's first-person sentences that are not questions, joined by line breaks ('' when there are none). */
export function statementText(text: string): string {
  const kept: string[] = [];
  for (const m of text.matchAll(SENTENCES)) {
    const s = m[0];
    if (!QUESTION_END.test(s) && isFirstPerson(s)) kept.push(s.trim());
  }
  return kept.join('\n');
}
