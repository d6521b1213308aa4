import { z } from 'zod';
import { invalidArgument } from '../validation';
import { conversationId } from './stable-id';
import { cleanText, cleanTitle } from './text';
import { parseLooseDate } from './times';
import { emptySkips, type ImportedMessage, type ParsedConversation } from './types';

/**
 * One conversation of a Claude data export (`conversations.json`, an array of these): `chat_messages`
 * in order, `sender` human or assistant. Newer exports give each message `content` blocks (text,
 * tool_use, tool_result, thinking) beside the flat `text`; only text blocks are kept. When messages
 * carry `parent_message_uuid`, the branch ending at the newest message is kept (as the app shows it).
 */
const block = z.looseObject({ type: z.string(), text: z.string().optional() });
const message = z.looseObject({
  uuid: z.string().optional(),
  sender: z.string(),
  text: z.string().nullable().optional(),
  content: z.array(block).nullable().optional(),
  created_at: z.string().nullable().optional(),
  parent_message_uuid: z.string().nullable().optional(),
});
export const claudeConversationSchema = z.looseObject({
  uuid: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  chat_messages: z.array(message),
});

type Message = z.infer<typeof message>;

/** The newest message's ancestry when the export links parents; the list as it is otherwise. */
function currentBranch(all: Message[]): { kept: Message[]; dropped: number } {
  const linked = all.length > 0 && all.every((m) => m.uuid && m.parent_message_uuid !== undefined);
  if (!linked) return { kept: all, dropped: 0 };
  const byId = new Map(all.map((m) => [m.uuid as string, m]));
  const path: Message[] = [];
  const seen = new Set<string>();
  for (let m: Message | undefined = all[all.length - 1]; m?.uuid && !seen.has(m.uuid); m = byId.get(m.parent_message_uuid ?? '')) {
    seen.add(m.uuid);
    path.push(m);
  }
  return { kept: path.reverse(), dropped: all.length - path.length };
}

export function parseClaudeConversation(value: unknown, index: number): ParsedConversation {
  const res = claudeConversationSchema.safeParse(value);
  if (!res.success) throw invalidArgument(res.error, `conversations[${index}]`);
  const c = res.data;
  const skipped = emptySkips();
  const { kept, dropped } = currentBranch(c.chat_messages);
  skipped.branch += dropped;
  const messages: ImportedMessage[] = [];
  for (const m of kept) {
    const role = m.sender === 'human' ? 'user' : m.sender === 'assistant' ? 'assistant' : null;
    if (!role) {
      skipped.other++;
      continue;
    }
    let text = m.text ?? '';
    if (m.content && m.content.length > 0) {
      const texts = m.content.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
      skipped.tool += m.content.filter((b) => b.type === 'tool_use' || b.type === 'tool_result').length;
      if (texts.length > 0 || !text) text = texts.join('\n\n');
    }
    const content = cleanText(text);
    if (!content) {
      skipped.empty++;
      continue;
    }
    messages.push({ role, content, createdAt: parseLooseDate(m.created_at) });
  }
  return {
    conversation: {
      id: conversationId('claude', c.uuid, `${c.name ?? ''}\u0000${c.created_at ?? ''}\u0000${messages[0]?.content ?? ''}`),
      title: cleanTitle(c.name),
      createdAt: parseLooseDate(c.created_at),
      messages,
    },
    skipped,
  };
}
