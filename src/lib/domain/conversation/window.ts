import type { Role } from './types';

export interface WindowMessage {
  role: Role;
  content: string;
  turnNo: number;
}

/**
 * Seed 000 rolling window: the immediate layer holds at most `contextLimit` messages (the system
 * message is extra). When there are more, whole user/assistant turns leave from the oldest end, so a
 * reply is never kept without the message it answers. What leaves the window is only dropped from the
 * prompt — it stays in the conversation table and is not turned into long-term memory by this.
 */
export function rollingWindow<M extends WindowMessage>(messages: readonly M[], contextLimit: number): { kept: M[]; dropped: M[] } {
  if (contextLimit <= 0) return { kept: [], dropped: [...messages] };
  let start = 0;
  while (messages.length - start > contextLimit) {
    // Drop the oldest turn whole: every message sharing the first kept message's turn number.
    const turn = messages[start]?.turnNo;
    do start++;
    while (start < messages.length && messages[start]?.turnNo === turn);
  }
  return { kept: messages.slice(start), dropped: messages.slice(0, start) };
}
