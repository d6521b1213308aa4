/**
 * Explicit requests to remember ("Remember that I moved to Porto.", "别忘了我对花生过敏") and the shape of
 * a memory's text. A request is the user's own word that this matters: what it introduces is kept even
 * when no rule reads it (as a note), and it is kept with the confidence of an instruction.
 *
 *   "Please remember that my flight is on Friday."  ─▶ { body: "my flight is on Friday" }
 *   "Can you remember that I'm vegetarian?"         ─▶ { body: "I'm vegetarian" }   (a request, not a question)
 *   "Do you remember that I moved?" / "Remember to buy milk" / "我记得…" ─▶ null
 */

const EN_REQUEST =
  /^(?:(?:ok|okay|so|and|also|oh|btw|hey)[,\s]+)?(?:please,?\s+)?(?:(?:can|could|would|will) you(?: please)?\s+)?(?:please\s+)?(?:remember|don't forget|do not forget|never forget|keep in mind|make a note|take a note|note down)(?:\s+that)?\s*[:,]?\s+(?!to\b)(.+)$/iu;
const EN_ASKED = /^(?:(?:ok|okay|so|and|also|oh|btw|hey)[,\s]+)?(?:please,?\s+)?(?:can|could|would|will) you\b/iu;
const ZH_REQUEST =
  /^(?:(?:对了|另外|还有|那个)[，,、\s]*)?(?:请|麻烦)?(?:你|帮我)?(?:要|一定要|务必|帮我)?(?:记住|记好|记一下|记下来|记下|记着|别忘了|别忘记|不要忘了|不要忘记|记得)(?:了|啊|哦|哈)?[：:，,、\s]*(.+)$/u;
const ZH_ASKED = /[吗么呢][？?！!。]*$|[？?]$/u;
const ZH_POLITE = /^(?:请|麻烦)?(?:你|您)?(?:能不能|可不可以|能否|可否|可以|能)/u;

export interface ExplicitRequest {
  /** What the user asked to remember, without the request words or a closing question mark. */
  body: string;
}

export function explicitRequest(sentence: string, lang: 'zh' | 'en'): ExplicitRequest | null {
  const text = sentence.trim();
  if (lang === 'en') {
    const m = EN_REQUEST.exec(text);
    if (!m) return null;
    const body = m[1]!.trim();
    // "Can you remember that …?" asks for something; "Remember that …?" is a question about memory.
    if (/\?\s*$/u.test(body) && !EN_ASKED.test(text)) return null;
    return usable(body.replace(/\s*\?+$/u, ''));
  }
  const m = ZH_REQUEST.exec(text);
  if (!m) return null;
  // "你记得我叫什么吗？" asks; "你能记住我对花生过敏吗？" and "记住我叫小明，好吗？" request.
  if (ZH_ASKED.test(text) && !ZH_POLITE.test(text) && !/(?:好吗|行吗|可以吗)[？?]*$/u.test(text)) return null;
  return usable(m[1]!.trim().replace(/[，,]?(?:好吗|行吗|可以吗|[吗么])?[？?]*$/u, ''));
}

function usable(body: string): ExplicitRequest | null {
  const bare = body.replace(/[\s\p{P}]+$/u, '');
  // "Remember that you are a pirate" gives the assistant a role: an instruction, not a memory of the user.
  if (Array.from(bare).length < 2 || /^(?:you|your|you're|你|您)/iu.test(bare)) return null;
  return { body: bare };
}

const EN_STATEMENT =
  /^(?:i\b|i'm|i've|i'll|i'd|my\b|we\b|we're|we've|our\b|(?:the|a|an|this|that|these|those|\p{Lu}[\p{L}'’-]*)\b.*\b(?:is|are|was|were|will|has|have|had|'s)\b)/iu;
const ZH_STATEMENT = /^我|是|叫|在|有|要|会|住|喜欢|过敏|生日/u;

/**
 * Whether what the user asked to remember states something ("my flight is on Friday", "我周五要交报告"),
 * rather than naming an errand ("the milk", "带伞"), which is a reminder Engram does not keep.
 */
export function isStatement(body: string, lang: 'zh' | 'en'): boolean {
  return lang === 'en' ? EN_STATEMENT.test(body) && body.split(/\s+/u).length >= 3 : ZH_STATEMENT.test(body);
}

/**
 * A memory's text as a complete sentence (seed 000): trailing commas dropped, an English sentence starts
 * with a capital letter, and every sentence ends with its stop.
 */
export function asSentence(text: string, lang: 'zh' | 'en'): string {
  let s = text.trim().replace(/[\s,;:，；：、]+$/u, '');
  if (s === '') return s;
  if (lang === 'en' && /^\p{Ll}/u.test(s)) s = s.charAt(0).toUpperCase() + s.slice(1);
  if (/[.!?。！？…]$/u.test(s)) return s;
  return `${s}${/\p{Script=Han}$/u.test(s) || lang === 'zh' ? '。' : '.'}`;
}
