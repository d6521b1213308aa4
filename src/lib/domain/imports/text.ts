import { MAX_MESSAGE_CHARS, MAX_TITLE_CHARS } from './limits';

/** A message's text as stored: line endings normalised, outer blank space trimmed, cut at the limit. */
export function cleanText(text: string): string {
  const t = text.replace(/\r\n?/g, '\n').trim();
  return t.length > MAX_MESSAGE_CHARS ? t.slice(0, MAX_MESSAGE_CHARS) : t;
}

export function cleanTitle(text: string | null | undefined): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return Array.from(t).slice(0, MAX_TITLE_CHARS).join('');
}
