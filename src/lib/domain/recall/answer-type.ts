/**
 * Question types (issue 8 "question-type cues"): "how long" asks for a duration, "when" for a time, "how many" for
 * a number, "where" for a place, "who" for a person — zh and en. A turn that holds something of the asked type is
 * more likely to answer the question than one that only shares its words.
 */
export type AnswerType = 'duration' | 'time' | 'number' | 'place' | 'person';

const QUESTION_TYPES: readonly [RegExp, AnswerType][] = [
  [/\bhow\s+long\b|\bfor\s+how\s+long\b|多久|多长时间|多少(?:天|年|个月|周|小时|分钟)/iu, 'duration'],
  [/\bhow\s+(?:many|much|often)\b|\bwhat\s+(?:number|percentage|amount)\b|多少|几(?:个|次|本|只|位|家|种|条|件|张|岁)/iu, 'number'],
  [/\bwhen\b|\bwhat\s+(?:time|date|day|year|month)\b|\bwhich\s+(?:day|year|month|date)\b|什么时候|哪天|哪一天|几号|几点|哪年|哪一年|几月/iu, 'time'],
  [/\bwhere\b|\bwhich\s+(?:city|country|place|restaurant|store|shop)\b|哪里|哪儿|什么地方|在哪/iu, 'place'],
  [/\bwho\b|\bwhose\b|\bwhom\b|谁/iu, 'person'],
];

export function answerType(question: string): AnswerType | null {
  const text = question.normalize('NFKC');
  for (const [re, type] of QUESTION_TYPES) if (re.test(text)) return type;
  return null;
}

const NUMBER_WORD =
  /\b(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|dozen|couple|few|several)\b|[0-9一二两三四五六七八九十百千万]+\s*(?:个|次|本|只|位|家|种|条|件|张|岁|天|年|月|周|小时|分钟|元|块)/iu;
const DURATION =
  /\b(?:for|since|about|almost|over|nearly)\s+(?:a|an|\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|a\s+couple\s+of)?\s*(?:\w+\s+)?(?:minutes?|hours?|days?|weeks?|months?|years?|decades?)\b|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\b|(?:[0-9一二两三四五六七八九十几半]+)\s*(?:个)?(?:分钟|小时|天|周|星期|个月|月|年)(?:了|多|左右)?/iu;
const TIME_WORD =
  /\b(?:yesterday|today|tonight|tomorrow|last\s+(?:night|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|fri|sat|sun)|this\s+(?:morning|week|weekend|month|year)|next\s+(?:week|month|year)|ago|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|(?:19|20)\d\d|\d{1,2}:\d\d|(?:in|on)\s+the\s+(?:morning|evening|afternoon|weekend))\b|昨天|今天|前天|明天|上周|上个月|去年|今年|周[一二三四五六日末]|星期[一二三四五六日天]|[0-9一二三四五六七八九十]+月|[0-9一二三四五六七八九十]+[日号]|点钟?/iu;
const PLACE =
  /\b(?:in|at|to|from|near|visited|visit|went\s+to|moved\s+to|moved\s+from)\s+(?:the\s+)?\p{Lu}[\p{L}'’-]+|在\S{1,8}(?:市|省|县|区|路|街|店|馆|园|院|校|家|国|里)|去了?\S{1,6}(?:市|省|国|店|馆|园|院)/u;
const PERSON = /(?<!^|[.!?]\s)\b\p{Lu}\p{Ll}+\b|(?:我的)?(?:朋友|同事|老师|妈妈|爸爸|哥哥|姐姐|弟弟|妹妹|老公|老婆|丈夫|妻子|医生|同学)/u;

/** Does the text contain something of the asked type? */
export function holdsAnswerType(text: string, type: AnswerType): boolean {
  const t = text.normalize('NFKC');
  switch (type) {
    case 'duration':
      return DURATION.test(t);
    case 'number':
      return NUMBER_WORD.test(t);
    case 'time':
      return TIME_WORD.test(t);
    case 'place':
      return PLACE.test(t);
    case 'person':
      return PERSON.test(t);
  }
}
