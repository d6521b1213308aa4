import { gramsText } from '../../domain/text/grams';
import { indexText } from '../../domain/text/segment';
import { valueStrings } from './memory-rows';
import { symbolsColumn } from './symbol-tokens';

/**
 * What goes into each full-text index, in one place: the repositories write these columns when a row
 * changes, and a backup import rebuilds them from imported rows with the very same functions, so the
 * two can never index differently.
 */
/** messages_fts: the turn's words; `extra` (unused, no weight yet); its code symbols as lookup tokens (never searched as text). */
export const MESSAGE_FTS_INSERT = 'INSERT INTO messages_fts (rowid, body, extra, symbols) VALUES (?, ?, ?, ?)';

/** A text query over messages_fts: its words and expansions, never the symbols column. */
export const messageTextMatch = (match: string): string => `{body extra} : (${match})`;
/** bm25 over messages_fts: body, extra at half weight, symbols not at all. */
export const MESSAGE_BM25 = 'bm25(messages_fts, 1.0, 0.5, 0.0)';

export function messageFtsColumns(m: { content: string; symbols: readonly string[] }): [body: string, extra: string, symbols: string] {
  return [indexText(m.content), '', symbolsColumn(m.symbols)];
}

export function summaryFtsColumns(s: { summary: string; keySymbols: readonly string[]; keyDecisions: readonly string[] }): [body: string] {
  return [indexText([s.summary, ...s.keySymbols, ...s.keyDecisions].join('\n'))];
}

/** memories_fts: words of the content, tags and value; the key's words; CJK character pairs of content and tags. */
export const MEMORY_FTS_COLUMNS = ['body', 'key', 'grams'] as const;
export const MEMORY_FTS_INSERT = 'INSERT INTO memories_fts (rowid, body, key, grams) VALUES (?, ?, ?, ?)';

export function memoryFtsColumns(m: { content: string; tags: readonly string[]; value: unknown; key: string }): [body: string, key: string, grams: string] {
  const text = [m.content, ...m.tags, ...valueStrings(m.value)].join('\n');
  return [indexText(text), indexText(m.key.replace(/[._]+/gu, ' ')), gramsText([m.content, ...m.tags].join('\n'))];
}

/** episodes_fts: the passage summary and the kept text, as words and CJK pairs (episode recall, issue 17). */
export const EPISODE_FTS_COLUMNS = ['body', 'grams'] as const;
export const EPISODE_FTS_INSERT = 'INSERT INTO episodes_fts (rowid, body, grams) VALUES (?, ?, ?)';

export function episodeFtsColumns(e: { inputSummary: string; keptText: string }): [body: string, grams: string] {
  const text = `${e.inputSummary}\n${e.keptText}`;
  return [indexText(text), gramsText(text)];
}
