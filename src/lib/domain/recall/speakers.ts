/**
 * Who wrote a turn, by name (issue 8 "speaker names"). The app stores two roles, not names, yet people address each
 * other: "Thanks, Priya!" is written *to* Priya, so in that conversation Priya is the other role. A
 * question that names a participant ("What did Priya study?") is then about that role's turns in the
 * conversations where the name is used that way. Nothing is stored: the engine reads the few turns that contain
 * the name at question time and tallies how they use it.
 */
const GREETING =
  "(?:hey|hi|hiya|hello|yo|thanks|thank you|thx|wow|whoa|congrats|congratulations|oh|ooh|aw+|aww+|yeah|yes|yep|sorry|great|nice|cool|awesome|amazing|ok|okay|sure|bye|see you|see ya|take care|good morning|good night|good evening|good afternoon|morning|dear|welcome|haha|lol|omg|yay|ugh|hmm|well|love you|miss you|right|true|totally|definitely|absolutely|go)";
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const vocativeCache = new Map<string, RegExp>();

function vocativePattern(name: string): RegExp {
  const key = name.toLowerCase();
  let re = vocativeCache.get(key);
  if (!re) {
    const n = escapeRe(name);
    const latin = /^[\p{Script=Latin}'’-]+$/u.test(name);
    const body = latin
      ? // "Hey Bea!", "Thanks, Priya!", "…, Ned." "Vera, …" — the name as a form of address.
        `\\b${GREETING}[,!.]?\\s+${n}\\b|[,;]\\s*${n}\\s*(?:[!?.,;:)]|$)|^\\s*${n}\\s*[,!]`
      : // "小明，…" "…，妈妈！" — the name at the start, or closing a clause.
        `^\\s*${n}\\s*[，,!！]|[，,]\\s*${n}\\s*[!！?？。.]`;
    re = new RegExp(body, latin ? 'iu' : 'u');
    if (vocativeCache.size > 256) vocativeCache.clear();
    vocativeCache.set(key, re);
  }
  return re;
}

const SELF_EN = (n: string) => new RegExp(`\\b(?:i'm|i am|my name is|my name's|call me)\\s+${escapeRe(n)}\\b`, 'iu');
const SELF_ZH = (n: string) => new RegExp(`我(?:是|叫)\\s*${escapeRe(n)}`, 'u');

/**
 * How a turn uses a name: 'addresses' (the writer speaks to that person: "Thanks, Priya!"), 'self' (the writer
 * is that person: "I'm Priya", "我叫小明"), or null (a mention that says nothing about who is who).
 */
export function nameUse(text: string, name: string): 'addresses' | 'self' | null {
  const t = text.normalize('NFKC').replace(/’/gu, "'");
  const latin = /^[\p{Script=Latin}'’-]+$/u.test(name);
  if ((latin ? SELF_EN(name) : SELF_ZH(name)).test(t)) return 'self';
  return vocativePattern(name).test(t) ? 'addresses' : null;
}

export type Role = 'user' | 'assistant';

const other = (role: Role): Role => (role === 'user' ? 'assistant' : 'user');

/**
 * Per conversation, the role a name belongs to, from the turns that contain it: a turn addressing the name votes
 * for the other role, a self-introduction for its own. A conversation whose votes disagree without a 2:1 majority
 * is left out (the name says nothing reliable there).
 */
/** A name must be used as a form of address at least this often before it counts as a participant's. */
export const MIN_NAME_VOTES = 2;

export function speakersFromMentions(mentions: readonly { sessionId: string; role: Role; content: string }[], name: string): Map<string, Role> {
  const votes = new Map<string, { user: number; assistant: number }>();
  for (const m of mentions) {
    const use = nameUse(m.content, name);
    if (!use) continue;
    const v = votes.get(m.sessionId) ?? { user: 0, assistant: 0 };
    v[use === 'self' ? m.role : other(m.role)]++;
    votes.set(m.sessionId, v);
  }
  const out = new Map<string, Role>();
  let total = 0;
  for (const v of votes.values()) total += v.user + v.assistant;
  if (total < MIN_NAME_VOTES) return out;
  for (const [session, v] of votes) {
    if (v.user >= 2 * v.assistant && v.user > 0) out.set(session, 'user');
    else if (v.assistant >= 2 * v.user && v.assistant > 0) out.set(session, 'assistant');
  }
  return out;
}
