import type { ImportedMessage } from './types';

/**
 * How an imported conversation meets what the database already has (idempotency, issue 14): the
 * conversation's id comes from the source's own id, so a second import finds the first one's copy.
 *
 *   not there                               ─▶ add      (every message)
 *   there, its messages = the file's first k ─▶ extend   (the file's messages after k: it went on since)
 *                      = all of the file's   ─▶ same     (nothing to do)
 *   there, but it differs (edited here, or a
 *   different branch was chosen there)       ─▶ changed  (kept as it is: nothing is overwritten)
 */
export type ConversationOutcome = 'add' | 'extend' | 'same' | 'changed';

export interface ExistingMessage {
  role: 'user' | 'assistant';
  content: string;
}

export function compareConversation(existing: readonly ExistingMessage[] | null, incoming: readonly ImportedMessage[]): { outcome: ConversationOutcome; from: number } {
  if (existing === null) return { outcome: 'add', from: 0 };
  if (existing.length > incoming.length) return { outcome: 'changed', from: incoming.length };
  for (let i = 0; i < existing.length; i++) {
    const a = existing[i] as ExistingMessage;
    const b = incoming[i] as ImportedMessage;
    if (a.role !== b.role || a.content !== b.content) return { outcome: 'changed', from: i };
  }
  return existing.length === incoming.length ? { outcome: 'same', from: existing.length } : { outcome: 'extend', from: existing.length };
}

export interface TurnedMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
  turnNo: number;
}

/**
 * Turn numbers as the chat writes them (engine/conversation): a user message opens a turn and the
 * replies after it share it; a conversation that starts with the assistant (a character's greeting)
 * opens turn 1 with it. `turnCount` is where the conversation stands before these messages.
 */
export function assignTurns(messages: readonly ImportedMessage[], start: { turnCount: number }): { rows: TurnedMessage[]; turnCount: number } {
  let turn = start.turnCount;
  const rows = messages.map((m) => {
    if (m.role === 'user' || turn === 0) turn++;
    return { role: m.role, content: m.content, createdAt: m.createdAt as number, turnNo: turn };
  });
  return { rows, turnCount: turn };
}
