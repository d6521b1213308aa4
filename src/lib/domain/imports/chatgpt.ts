import { z } from 'zod';
import { EngineError } from '../errors';
import { invalidArgument } from '../validation';
import { conversationId } from './stable-id';
import { cleanText, cleanTitle } from './text';
import { fromEpochSeconds } from './times';
import { emptySkips, type ImportedMessage, type ParsedConversation, type SkipCounts } from './types';

/**
 * One conversation of a ChatGPT data export (`conversations.json`, an array of these). Its messages are
 * a tree (`mapping`: node → parent/children): every edit or regeneration starts a branch, and
 * `current_node` is the leaf the person last saw. Engram keeps that branch, root to leaf, as ChatGPT
 * shows it — user and assistant text only:
 *
 *   current_node ─parent─▶ … ─parent─▶ root   (reversed: oldest first)
 *     skip: system / tool authors, hidden nodes, assistant calls to a tool (recipient ≠ all),
 *           non-text content (code, execution output, browsing, reasoning), empty text
 *
 * Only the fields read are declared; unknown fields pass (the export grows new ones).
 */
const part = z.union([z.string(), z.looseObject({ text: z.string().optional(), content_type: z.string().optional() })]);
const message = z.looseObject({
  id: z.string().optional(),
  author: z.looseObject({ role: z.string() }),
  create_time: z.number().nullable().optional(),
  content: z.looseObject({ content_type: z.string(), parts: z.array(part.nullable()).optional(), text: z.string().optional() }),
  recipient: z.string().nullable().optional(),
  metadata: z.looseObject({ is_visually_hidden_from_conversation: z.boolean().nullable().optional() }).nullable().optional(),
});
const node = z.looseObject({
  message: message.nullable().optional(),
  parent: z.string().nullable().optional(),
  children: z.array(z.string()).optional(),
});
export const chatgptConversationSchema = z.looseObject({
  title: z.string().nullable().optional(),
  create_time: z.number().nullable().optional(),
  mapping: z.record(z.string(), node),
  current_node: z.string().nullable().optional(),
  conversation_id: z.string().nullable().optional(),
  id: z.string().nullable().optional(),
});

type Node = z.infer<typeof node>;
type Message = z.infer<typeof message>;

/** The kinds of content that are conversation text; everything else is a tool's or the model's internals. */
const TEXT_TYPES = new Set(['text', 'multimodal_text']);
const TOOL_TYPES = new Set(['code', 'execution_output', 'tether_browsing_display', 'tether_quote', 'system_error', 'computer_output']);

function textOf(m: Message): string {
  const parts = m.content.parts ?? (m.content.text !== undefined ? [m.content.text] : []);
  return parts
    .map((p) => (typeof p === 'string' ? p : p && p.content_type === undefined && typeof p.text === 'string' ? p.text : ''))
    .filter((p) => p !== '')
    .join('\n');
}

/** Why a message is left out, or null to keep it. */
function skipReason(m: Message): keyof SkipCounts | null {
  const role = m.author.role;
  if (role === 'system') return 'system';
  if (role === 'tool') return 'tool';
  if (role !== 'user' && role !== 'assistant') return 'other';
  if (m.metadata?.is_visually_hidden_from_conversation) return 'hidden';
  if (m.content.content_type === 'user_editable_context') return 'system';
  if (role === 'assistant' && m.recipient && m.recipient !== 'all') return 'tool';
  if (TOOL_TYPES.has(m.content.content_type)) return 'tool';
  if (!TEXT_TYPES.has(m.content.content_type)) return 'other';
  return null;
}

/** The current branch, root first: from `current_node` (or the newest leaf) up the parent links. */
function currentBranch(mapping: Record<string, Node>, current: string | null | undefined): string[] {
  let leaf = current && Object.hasOwn(mapping, current) ? current : null;
  if (!leaf) {
    // No current node: the newest leaf.
    let best = -Infinity;
    for (const [id, n] of Object.entries(mapping)) {
      if (n.children && n.children.length > 0) continue;
      const t = n.message?.create_time ?? 0;
      if (t >= best) {
        best = t;
        leaf = id;
      }
    }
  }
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id = leaf; id && Object.hasOwn(mapping, id) && !seen.has(id); id = mapping[id]?.parent ?? null) {
    seen.add(id);
    path.push(id);
  }
  return path.reverse();
}

export function parseChatgptConversation(value: unknown, index: number): ParsedConversation {
  const field = `conversations[${index}]`;
  const res = chatgptConversationSchema.safeParse(value);
  if (!res.success) throw invalidArgument(res.error, field);
  const c = res.data;
  const skipped = emptySkips();
  const branch = currentBranch(c.mapping, c.current_node);
  const onBranch = new Set(branch);
  for (const [id, n] of Object.entries(c.mapping)) if (!onBranch.has(id) && n.message) skipped.branch++;
  const messages: ImportedMessage[] = [];
  for (const id of branch) {
    const m = c.mapping[id]?.message;
    if (!m) continue;
    const why = skipReason(m);
    if (why) {
      skipped[why]++;
      continue;
    }
    const content = cleanText(textOf(m));
    if (!content) {
      skipped.empty++;
      continue;
    }
    messages.push({ role: m.author.role as 'user' | 'assistant', content, createdAt: fromEpochSeconds(m.create_time) });
  }
  const sourceId = c.conversation_id ?? c.id ?? null;
  if (!sourceId && Object.keys(c.mapping).length === 0)
    throw new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: a conversation without an id or messages. Nothing was imported.`, { fields: [field] });
  return {
    conversation: {
      id: conversationId('chatgpt', sourceId, `${c.title ?? ''}\u0000${c.create_time ?? ''}\u0000${branch.join(',')}`),
      title: cleanTitle(c.title),
      createdAt: fromEpochSeconds(c.create_time),
      messages,
    },
    skipped,
  };
}
