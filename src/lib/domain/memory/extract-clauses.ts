/**
 * Turning a user's message into clauses the rules can read:
 *
 *   message ─ stripNonStatements ─▶ text without code, quotes, transcripts
 *           ─ splitSentences ─────▶ sentences (content of the memories)
 *           ─ zhClauses/enClauses ▶ clauses: lead-ins stripped, subject resolved, question/request flags
 *
 * Only the user's own words reach this point (the engine never passes the system prompt or replies);
 * what the user pastes from elsewhere (code, quoted speech, "Assistant: …" transcripts) is removed here.
 */

export interface Clause {
  /** What the rules match: lead-ins removed, for zh an inherited 我 restored. */
  text: string;
  question: boolean;
  /** A polite request phrased as a question ("可以叫我小明吗？", "Could you call me Sam?"). */
  request: boolean;
  /** A hypothetical ("如果…", "if …", "let's say …") opened earlier in the sentence. */
  hypothetical: boolean;
  /**
   * Someone else's words: an earlier clause reported them ("他说：我叫小明", "My friend said: I love
   * coffee", "According to the prompt, my name is Sam"). What follows is theirs, not the user's.
   */
  reported: boolean;
}

/**
 * Where a sentence's first-person words are not the user's own: the system prompt, instructions, a
 * transcript the user describes. Such a sentence is never a statement about the user.
 */
export const FOREIGN_VOICE =
  /(?:system (?:prompt|message|instructions?)|(?:custom|the|your|these|those) instructions|the prompt|(?:the|this) template)|系统(?:提示|提示词|消息|指令|设定|说明)|提示词|指令(?:里|中|上)|模板(?:里|中)/iu;

/** Stands in for quoted text: a clause containing it is someone else's words and is skipped. */
export const QUOTE_MARK = '⟦⟧';

const TRANSCRIPT_LABEL =
  /^\s*(?:assistant|ai|bot|chatgpt|gpt|claude|gemini|model|system|user|human|助手|ai助手|机器人|系统|用户|模型)\s*[:：]/iu;
const CODE_LINE =
  /^\s*(?:\/\/|\/\*|\*\/|#!|#include\b|(?:import|export|const|let|var|def|function|class|return|public|private|package|fn|func)\s|print\s*\(|console\.|echo\s|\$\s)|[;{}]\s*$|=>|[!=:]=|^\s*[\w.[\]]+\s*=\s*\S|\w\([^()]*\)\s*;?\s*$/u;

export function stripNonStatements(message: string): string {
  return message
    .replace(/\r\n?/gu, '\n')
    .replace(/(```|~~~)[\s\S]*?(?:\1|$)/gu, '\n')
    .replace(/`[^`\n]*`/gu, ' ')
    .replace(/“[^”\n]*”|"[^"\n]*"|「[^」\n]*」|『[^』\n]*』|‘[^’\n]*’|《[^》\n]*》/gu, QUOTE_MARK)
    .split('\n')
    .filter((line) => !TRANSCRIPT_LABEL.test(line) && !/^\s*>/u.test(line) && !CODE_LINE.test(line))
    .join('\n');
}

const ABBREVIATION = /(?:\b(?:dr|mr|mrs|ms|prof|st|jr|sr|vs|etc|e\.g|i\.e)|\b\p{Lu})$/iu;

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let start = 0;
    const enders = /[。！？!?；;…]+|\.(?=\s|$)/gu;
    for (let m = enders.exec(line); m; m = enders.exec(line)) {
      if (m[0] === '.' && ABBREVIATION.test(line.slice(start, m.index))) continue;
      out.push(line.slice(start, m.index + m[0].length));
      start = m.index + m[0].length;
    }
    out.push(line.slice(start));
  }
  return out.map((s) => s.trim()).filter((s) => s !== '' && /[\p{L}\p{N}]/u.test(s));
}

// ── Chinese ──────────────────────────────────────────────────────────────────

const ZH_LEAD = /^(?:(?:其实|说实话|老实说|顺便说一下|顺便说|顺便提一下|另外|还有|而且|但是|不过|可是|所以|总之|记住|请记住|记一下|你记住|对了)[，,、\s]*|(?:对|嗯+|哦+|噢|好吧|好的|是的|没错|哈哈+|嗨|你好|hi|hello)[，,、！!\s]+)+/iu;
const ZH_PERSIST_ONLY = /^(?:以后|今后|往后|从现在开始|从现在起|从今以后|接下来)$/u;
const ZH_ME = /^我(?!们|朋友|妈|爸|老[公婆师板]|哥|姐|弟|妹|同事|同学|儿子|女儿|孩子|男朋友|女朋友|对象|爷|奶|外[公婆]|家|的(?!名字|工作|职业|母语))/u;
const ZH_OTHER = /^(?:你|您|他|她|它|我们|他们|她们|大家|别人|有人|我朋友|我妈|我爸|我的)/u;
const ZH_PREDICATE = /^(?:是|在|住|喜欢|不喜欢|爱|讨厌|也|还|都|更|最|对|今年|从事|做|改|现在|已经|平时|一般|通常|习惯|不再|戒|来自|老家|就职|不吃|不喝)/u;
const ZH_QUESTION = /什么|哪|谁|怎么|为什么|为何|多少|几[个岁点]|是不是|有没有|(.)不\1|[吗呢么][？?！!。]*$|[？?]/u;
const ZH_REQUEST = /^(?:你)?(?:能不能|可不可以|能否|可否|能|可以|麻烦你?|请你?)/u;
const ZH_HYPOTHETICAL = /如果|假如|假设|要是|万一|倘若|假若|想象|就算|即使|要不是/u;
/** A clause that hands over to someone else's words: "他说", "我妈告诉我", "据说", "书上写着". */
const ZH_REPORT = /(?:说|讲|提到|写道|写着|表示|告诉我|告诉过我|问我|问|提示|规定|要求|回答|回复)(?:过|了|道|着)?$/u;
const ZH_REPORT_START = /^(?:据|根据|按照|照)/u;
/** The user reporting their own words ("我说过", "正如我所说"): still the user's. */
const ZH_SELF_REPORT = /我[也都已经之前早就刚才所]{0,3}(?:说|讲|提到|写|告诉|表示|回答)/u;

export function zhClauses(sentence: string): Clause[] {
  const parts = mergeLeadIns(sentence.split(/[，,；;：:]/u), (p) => {
    const bare = p.replace(/[。！？!?\s]+$/u, '');
    return bare.replace(ZH_LEAD, '') === '' || ZH_PERSIST_ONLY.test(bare.trim());
  }, '，');
  const out: Clause[] = [];
  let subjectIsMe = false;
  let hypothetical = false;
  let reported = false;
  for (const part of parts) {
    let text = part.trim().replace(ZH_LEAD, '');
    if (ZH_ME.test(text)) subjectIsMe = true;
    else if (ZH_OTHER.test(text)) subjectIsMe = false;
    else if (subjectIsMe && ZH_PREDICATE.test(text)) text = `我${text}`;
    const question = ZH_QUESTION.test(text);
    const request = question && ZH_REQUEST.test(text);
    const core = request ? text.replace(ZH_REQUEST, '').replace(/[吗呢么嘛][？?！!。]*$|[？?]+$/u, '') : text;
    const bare = core.replace(/[。！!…~～\s]+$/u, '');
    if (ZH_REPORT_START.test(bare)) reported = true;
    out.push({ text: bare, question, request, hypothetical, reported });
    if (ZH_HYPOTHETICAL.test(text)) hypothetical = true;
    // "我说过" is the user quoting themself; anyone else's "说" hands the rest of the sentence over.
    if (ZH_REPORT.test(bare) && !ZH_ME.test(bare) && !ZH_SELF_REPORT.test(bare)) reported = true;
  }
  return out;
}

// ── English ──────────────────────────────────────────────────────────────────

const EN_LEAD =
  /^(?:(?:oh|ok|okay|well|yeah|yes|yep|no|nope|hi|hello|hey|btw|by the way|fyi|also|and|but|so|honestly|actually|anyway|anyways|plus|just so you know|for the record|for your information|note that|please note that|remember that|please remember that|remember|ah|um|uh|right|sure)\b[,.!]?\s*)+/iu;
const EN_PERSIST_ONLY = /^(?:from now on|going forward|in the future|in future|from here on|please)$/iu;
const EN_FIRST_PERSON_START = /^(?:i\b|i'm|i've|i am|call me|my name)/iu;
const EN_VERB = /\b(?:is|are|was|were|am|goes|has|have|had|called|named)\b|['’](?:s|re)\b/iu;
const EN_QUESTION =
  /\?\s*$|^(?:do|does|did|is|are|am|was|were|can|could|would|will|should|shall|may|what|what's|whats|who|who's|whom|whose|why|how|which|where|when)\b/iu;
const EN_REQUEST = /^(?:can|could|would|will) you (?:please )?/iu;
const EN_HYPOTHETICAL = /\b(?:if|suppose|supposing|imagine|hypothetically|pretend|let's say|lets say|what if|assuming|in case)\b/iu;
const EN_REPORT =
  /\b(?:says?|said|tells? (?:me|us)|told (?:me|us)|writes?|wrote|asks?|asked|claims?|claimed|mentions?|mentioned|states?|stated|reads?|goes|went|replied|answered|puts? it)(?:\s+that)?$/iu;
const EN_REPORT_START = /^(?:according to|as per|per|quoting|quote)\b/iu;
/** The user reporting their own words ("I said", "as I said", "like I told you"): still the user's. */
const EN_SELF = /\b(?:i|i've|i'd)\b/iu;

export function enClauses(sentence: string): Clause[] {
  const pieces = sentence.split(/[,;:]\s*/u).flatMap(splitOnConjunction);
  const parts = mergeLeadIns(pieces, (p) => {
    const bare = p.replace(/[.!?\s]+$/u, '').trim();
    return bare.replace(EN_LEAD, '') === '' || EN_PERSIST_ONLY.test(bare);
  }, ', ');
  const out: Clause[] = [];
  let hypothetical = false;
  let reported = false;
  for (const part of parts) {
    const text = part.trim().replace(EN_LEAD, '');
    const question = EN_QUESTION.test(text);
    const request = question && EN_REQUEST.test(text);
    const core = request ? text.replace(EN_REQUEST, '').replace(/\s*(?:,?\s*please)?\s*\?+$/iu, '') : text;
    const bare = core.replace(/[.!…\s]+$/u, '');
    if (EN_REPORT_START.test(bare)) reported = true;
    out.push({ text: bare, question, request, hypothetical, reported });
    if (EN_HYPOTHETICAL.test(text)) hypothetical = true;
    // "I said:" is the user quoting themself; anyone else's "said:" hands the rest over.
    if (EN_REPORT.test(bare) && !EN_SELF.test(bare)) reported = true;
  }
  return out;
}

/** The sentence without its opening discourse words ("By the way, …", "对了，…"): where a memory's text starts. */
export function stripLeadIn(sentence: string, lang: 'zh' | 'en'): string {
  const stripped = sentence.trim().replace(lang === 'zh' ? ZH_LEAD : EN_LEAD, '');
  return stripped === '' ? sentence.trim() : stripped;
}

/** "My name is Sam and I work at Google" → two clauses; "my wife and I like hiking" stays one. */
function splitOnConjunction(piece: string): string[] {
  const m = /\s+(?:and|but|so)\s+(?=(?:i|i'm|i've|i am|my|call me)\b)/iu.exec(piece);
  if (!m) return [piece];
  const head = piece.slice(0, m.index).trim().replace(EN_LEAD, '');
  // "My husband is called Marco and my daughter…" splits too: its first part is a whole clause about
  // someone of the user's; "my wife and I…" has no verb before the "and" and stays one subject.
  if (!EN_FIRST_PERSON_START.test(head) && !(/^my\b/iu.test(head) && EN_VERB.test(head))) return [piece];
  return [piece.slice(0, m.index), ...splitOnConjunction(piece.slice(m.index + m[0].length))];
}

/** A clause that is only a lead-in ("对了", "From now on") belongs to the next one. */
function mergeLeadIns(parts: readonly string[], isLeadIn: (p: string) => boolean, joiner: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const part of parts) {
    if (part.trim() === '') continue;
    if (isLeadIn(part)) {
      pending += `${part.trim()}${joiner}`;
      continue;
    }
    out.push(`${pending}${part.trim()}`);
    pending = '';
  }
  return out;
}
