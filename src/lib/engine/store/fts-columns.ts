import { indexText } from '../../domain/text/segment';
import { valueStrings } from './memory-rows';

/**
 * What goes into each full-text index, in one place: the repositories write these columns when a row
 * changes, and a backup import rebuilds them from imported rows with the very same functions, so the
 * two can never index differently.
 */
export function messageFtsColumns(m: { content: string }): [body: string, extra: string] {
  return [indexText(m.content), ''];
}

export function summaryFtsColumns(s: { summary: string; keySymbols: readonly string[]; keyDecisions: readonly string[] }): [body: string] {
  return [indexText([s.summary, ...s.keySymbols, ...s.keyDecisions].join('\n'))];
}

export function memoryFtsColumns(m: { content: string; tags: readonly string[]; value: unknown; key: string }): [body: string, key: string] {
  return [indexText([m.content, ...m.tags, ...valueStrings(m.value)].join('\n')), indexText(m.key.replace(/[._]+/gu, ' '))];
}
