/** Dates as the data sets write them, read as UTC (the data carry no time zone). */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** LoCoMo: "4:20 pm on 3 March, 2022". */
export function parseLocomoDate(text: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text.trim());
  const month = m ? MONTHS.indexOf((m[5] ?? '').slice(0, 3).toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`unreadable LoCoMo date: ${text}`);
  const hour = (Number(m[1]) % 12) + ((m[3] ?? '').toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** LongMemEval: "2023/05/20 (Sat) 02:21". */
export function parseLongMemEvalDate(text: string): number {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})\s*(?:\([A-Za-z]+\))?\s*(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) throw new Error(`unreadable LongMemEval date: ${text}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
}

/** MADial memories: "2023-12-25". */
export function parseIsoDay(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) throw new Error(`unreadable date: ${text}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
}
