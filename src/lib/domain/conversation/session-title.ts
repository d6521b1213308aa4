import { splitSentences } from '../text/sentences';
import { clipFlat as clip } from '../text/clip';

const TITLE_CHARS = 60;
const SNIPPET_CHARS = 120;


/** Seed 000 session summary without a model: the first question's first sentence, and the reply's opening. */
export function heuristicSessionSummary(firstUser: string, firstReply: string): { title: string; snippet: string } {
  const stripped = (s: string) => s.replace(/```[\s\S]*?```/gu, ' ').replace(/[#>*_`]/gu, '');
  const title = clip(splitSentences(stripped(firstUser))[0] ?? stripped(firstUser), TITLE_CHARS);
  const snippet = clip(stripped(firstReply) || stripped(firstUser), SNIPPET_CHARS);
  return { title, snippet };
}
