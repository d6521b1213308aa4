/**
 * What an import from another app becomes before it touches the database (issue 14): conversations of
 * user and assistant messages, and project setting files. Every parser (chatgpt, claude, sillytavern,
 * lorebook, logs) produces these shapes; the engine plans and writes them (engine/imports).
 */
export const IMPORT_SOURCES = ['chatgpt', 'claude', 'sillytavern', 'lorebook', 'logs'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface ImportedMessage {
  role: 'user' | 'assistant';
  content: string;
  /** Epoch ms, when the source says; filled from its neighbours otherwise (fillTimes). */
  createdAt: number | null;
}

export interface ImportedConversation {
  /** The conversation's id in Engram, derived from the source's own id so a second import finds it. */
  id: string;
  title: string;
  createdAt: number | null;
  messages: ImportedMessage[];
}

/** Why source messages were left out: counted, never silently dropped. */
export interface SkipCounts {
  /** System prompts, custom instructions, SillyTavern system/narrator lines. */
  system: number;
  /** Tool calls and their results, code-interpreter and browsing output. */
  tool: number;
  /** Messages the source hides from the conversation view. */
  hidden: number;
  /** No text left (attachments or images only). */
  empty: number;
  /** Branches not on the current path of a message tree (ChatGPT edits and regenerations). */
  branch: number;
  /** Content types Engram does not store (reasoning traces, unknown kinds). */
  other: number;
}

export const emptySkips = (): SkipCounts => ({ system: 0, tool: 0, hidden: 0, empty: 0, branch: 0, other: 0 });

export function addSkips(into: SkipCounts, more: SkipCounts): void {
  for (const k of Object.keys(into) as (keyof SkipCounts)[]) into[k] += more[k];
}

/** A project setting file an import brings (SillyTavern lorebook entries, character cards). */
export interface ImportedFile {
  folder: 'characters' | 'world';
  /** Project-relative, under `.engram/`. */
  path: string;
  content: string;
}

export interface ParsedConversation {
  conversation: ImportedConversation;
  skipped: SkipCounts;
}
