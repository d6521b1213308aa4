/**
 * Limits of an import from another app. Generous for real exports, small enough that a hostile file is
 * refused before it exhausts the worker's memory.
 */
import { MAX_BACKUP_BYTES } from '../backup/limits';

/** ChatGPT / Claude `conversations.json`, a SillyTavern chat: read piece by piece, so the backup's limit holds. */
export const MAX_IMPORT_BYTES = MAX_BACKUP_BYTES;
/** A lorebook, a character card or one log file is read whole. */
export const MAX_SMALL_FILE_BYTES = 32 * 1024 * 1024;
/** Log files in one import (002 `memory_import --from-logs <dir>`). */
export const MAX_LOG_FILES = 10_000;
/** One conversation of an export (a very long one with pasted code). */
export const MAX_CONVERSATION_CHARS = 64_000_000;
/** A message longer than Engram stores (message.append takes 200,000 characters) is cut there. */
export const MAX_MESSAGE_CHARS = 200_000;
/** Conversations in one import. */
export const MAX_CONVERSATIONS = 200_000;
/** Characters of a title kept (session.update takes 200). */
export const MAX_TITLE_CHARS = 200;
