import type { ImportSource } from './types';

/**
 * Which kind of file this is, from its name and first bytes — so the app can pick the reader itself,
 * and a wrong `--from` gets an error that says what the file looks like instead. `engram` is the app's
 * own JSON backup (which the backup import reads).
 */
export type DetectedKind = ImportSource | 'engram';

export function detectKind(head: string, fileName: string): DetectedKind | null {
  const text = head.replace(/^\uFEFF?\s*/, '');
  const name = fileName.toLowerCase();
  if (name.endsWith('.jsonl')) {
    if (/"(is_user|character_name|user_name|mes)"\s*:/.test(text)) return 'sillytavern';
    if (/"role"\s*:/.test(text)) return 'logs';
    return null;
  }
  if (text.startsWith('[')) {
    if (/"(mapping|current_node)"\s*:/.test(text)) return 'chatgpt';
    if (/"(chat_messages|sender)"\s*:/.test(text)) return 'claude';
    return null;
  }
  if (text.startsWith('{')) {
    if (/"format"\s*:\s*"engram-export"/.test(text)) return 'engram';
    if (/"spec"\s*:\s*"chara_card_v\d"|"first_mes"\s*:|"entries"\s*:/.test(text)) return 'lorebook';
    return null;
  }
  if (/\.(md|markdown|txt|log)$/.test(name)) return 'logs';
  return null;
}

/** Human names of the sources, for error messages (never user text). */
export const SOURCE_NAMES: Record<DetectedKind, string> = {
  chatgpt: 'a ChatGPT export (conversations.json)',
  claude: 'a Claude export (conversations.json)',
  sillytavern: 'a SillyTavern chat (.jsonl)',
  lorebook: 'a SillyTavern World Info file or character card (.json)',
  logs: 'a conversation log',
  engram: 'an Engram backup',
};
