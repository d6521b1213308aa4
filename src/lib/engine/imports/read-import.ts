import { checkFileSize, parseJsonSafely } from '../../domain/backup';
import { EngineError } from '../../domain/errors';
import {
  addSkips,
  createJsonArraySplitter,
  detectKind,
  emptySkips,
  isLogFile,
  MAX_CONVERSATION_CHARS,
  MAX_CONVERSATIONS,
  MAX_LOG_FILES,
  MAX_SMALL_FILE_BYTES,
  parseChatgptConversation,
  parseClaudeConversation,
  parseConversationLog,
  parseLorebook,
  parseSillyTavernChat,
  SOURCE_NAMES,
  type ImportedConversation,
  type ImportSource,
  type ParsedConversation,
  type ParsedLorebook,
  type SkipCounts,
} from '../../domain/imports';
import { readTextPieces } from '../backup/read-export';

/**
 * Reads the files of an import from another app — piece by piece for the big JSON arrays, whole for
 * small files — letting other engine calls run every few milliseconds, so a 300 MB ChatGPT export
 * never holds up the chat. Nothing is written here.
 *
 *   files ─▶ which reader (source, or detected from the first bytes) ─▶ conversations | lorebook
 */
export interface ImportFileInput {
  /** The file's name (a log folder: its path inside the folder), for detection and ids. */
  name: string;
  file: Blob;
}

export interface ReadImport {
  source: ImportSource;
  conversations: ImportedConversation[];
  lorebook: ParsedLorebook | null;
  skipped: SkipCounts;
  /** Conversations the file holds twice (the same id): the first is kept. */
  duplicates: number;
  /** Files that were not conversation logs (no speaker lines) or not text. */
  skippedFiles: number;
  bytes: number;
}

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const bad = (message: string, field = 'files') => new EngineError('INVALID_ARGUMENT', `${message} Nothing was imported.`, { fields: [field] });

async function headOf(file: Blob): Promise<string> {
  return file.slice(0, 64 * 1024).text();
}

/** Picks the reader: the one asked for, checked against what the file looks like, or the detected one. */
export async function resolveSource(files: readonly ImportFileInput[], asked: ImportSource | 'auto'): Promise<ImportSource> {
  const first = files[0] as ImportFileInput;
  const detected = detectKind(await headOf(first.file), first.name);
  if (asked === 'auto') {
    if (detected === 'engram') throw bad('Invalid `source`: this is an Engram backup; import it under Backup › Import (or `engram import <file>`).', 'source');
    if (detected === null) throw bad('Invalid `files`: Engram does not recognise this file (ChatGPT, Claude, SillyTavern or a conversation log).');
    return detected;
  }
  // Logs are any text: a folder may hold other files, which are skipped one by one.
  if (asked !== 'logs' && detected !== null && detected !== asked)
    throw bad(`Invalid \`source\`: this file looks like ${SOURCE_NAMES[detected]}, not ${SOURCE_NAMES[asked]}.`, 'source');
  return asked;
}

/**
 * `onRead` hears how many bytes of all the files together have been read so far (the page shows it, issue 16): first
 * (0, total) before readImport returns its promise, then as reading goes on.
 */
export async function readImport(opts: {
  source: ImportSource | 'auto';
  files: readonly ImportFileInput[];
  onRead?: (bytesRead: number, totalBytes: number) => void;
}): Promise<ReadImport> {
  const { files } = opts;
  if (files.length === 0) throw bad('Invalid `files`: choose at least one file.');
  const bytes = files.reduce((n, f) => n + f.file.size, 0);
  const onRead = opts.onRead ?? (() => {});
  onRead(0, bytes);
  const source = await resolveSource(files, opts.source);
  const out: ReadImport = { source, conversations: [], lorebook: null, skipped: emptySkips(), duplicates: 0, skippedFiles: 0, bytes };
  const seen = new Set<string>();
  const keep = (p: ParsedConversation) => {
    addSkips(out.skipped, p.skipped);
    if (seen.has(p.conversation.id)) {
      out.duplicates++;
      return;
    }
    if (seen.size >= MAX_CONVERSATIONS) throw bad(`Invalid \`files\`: more than ${MAX_CONVERSATIONS} conversations in one import; import the export in parts.`);
    seen.add(p.conversation.id);
    out.conversations.push(p.conversation);
  };

  if (source === 'chatgpt' || source === 'claude') {
    if (files.length !== 1) throw bad(`Invalid \`files\`: choose the one conversations.json of ${SOURCE_NAMES[source]}.`);
    const file = (files[0] as ImportFileInput).file;
    checkFileSize(file.size, 'files');
    const parse = source === 'chatgpt' ? parseChatgptConversation : parseClaudeConversation;
    const splitter = createJsonArraySplitter({
      element: (text, index) => keep(parse(parseJsonSafely(text, undefined, `conversations[${index}]`), index)),
      field: 'files',
      expected: SOURCE_NAMES[source],
      maxElementChars: MAX_CONVERSATION_CHARS,
    });
    await readTextPieces(file, (piece) => splitter.push(piece), { onRead: (n) => onRead(n, bytes) });
    splitter.end();
    return out;
  }

  let done = 0;
  for (const [i, f] of files.entries()) {
    if (source === 'logs' && !isLogFile(f.name)) {
      out.skippedFiles++;
      onRead((done += f.file.size), bytes);
      continue;
    }
    if (f.file.size > MAX_SMALL_FILE_BYTES)
      throw bad(`Invalid \`files[${i}]\`: the file is larger than ${MAX_SMALL_FILE_BYTES / (1024 * 1024)} MB.`, `files[${i}]`);
    const text = await f.file.text();
    const field = `files[${i}]`;
    if (source === 'sillytavern') keep(parseSillyTavernChat(text, { fileName: f.name, field }));
    else if (source === 'lorebook') {
      if (files.length !== 1) throw bad('Invalid `files`: choose one World Info file or character card at a time.');
      out.lorebook = parseLorebook(parseJsonSafely(text, undefined, field), { fileName: f.name, field });
    } else {
      if (files.length > MAX_LOG_FILES) throw bad(`Invalid \`files\`: more than ${MAX_LOG_FILES} log files in one import.`);
      const parsed = parseConversationLog(text, { path: f.name, field });
      if (parsed) keep(parsed);
      else out.skippedFiles++;
    }
    onRead((done += f.file.size), bytes);
    await pause();
  }
  return out;
}
