import type { Message } from '../../../domain/conversation/types';
import type { IpcResponse } from '../../../domain/errors';

/**
 * A conversation of any length (002 REQ-LTM-001: unlimited turns) is shown as a window of consecutive
 * messages, never all of it: the newest page on opening, a page around a message the recall page jumps
 * to, then "load earlier" / "load later" at its ends.
 *
 *   … earlier (hasEarlier) ┆ messages[0] … messages[n-1] ┆ later (hasLater) …
 */
export interface MessageWindow {
  messages: Message[];
  hasEarlier: boolean;
  /** false: the window reaches the conversation's newest message. */
  hasLater: boolean;
}

export type ListPage = (q: { limit: number; beforeId?: number; afterId?: number }) => Promise<IpcResponse<Message[]>>;

export const PAGE_SIZE = 100;
/** The most a window re-reads at once (message.list's own limit). */
const MAX_READ = 1000;

export const emptyWindow = (): MessageWindow => ({ messages: [], hasEarlier: false, hasLater: false });

type WindowResult = IpcResponse<MessageWindow>;

export async function newestPage(list: ListPage, size = PAGE_SIZE): Promise<WindowResult> {
  const res = await list({ limit: size });
  return res.ok ? { ok: true, data: { messages: res.data, hasEarlier: res.data.length === size, hasLater: false } } : res;
}

/**
 * The page around `messageId`: half a page before it (itself included) and half after. `found` is false
 * when the message is not in this conversation any more (then the newest page is shown instead).
 */
export async function pageAround(list: ListPage, messageId: number, size = PAGE_SIZE): Promise<IpcResponse<MessageWindow & { found: boolean }>> {
  const half = Math.max(1, Math.ceil(size / 2));
  const before = await list({ beforeId: messageId + 1, limit: half });
  if (!before.ok) return before;
  if (before.data.at(-1)?.id !== messageId) {
    const newest = await newestPage(list, size);
    return newest.ok ? { ok: true, data: { ...newest.data, found: false } } : newest;
  }
  const after = await list({ afterId: messageId, limit: half });
  if (!after.ok) return after;
  return {
    ok: true,
    data: { messages: [...before.data, ...after.data], hasEarlier: before.data.length === half, hasLater: after.data.length === half, found: true },
  };
}

export async function loadEarlier(list: ListPage, w: MessageWindow, size = PAGE_SIZE): Promise<WindowResult> {
  const first = w.messages[0];
  if (!first) return newestPage(list, size);
  const res = await list({ beforeId: first.id, limit: size });
  return res.ok ? { ok: true, data: { ...w, messages: [...res.data, ...w.messages], hasEarlier: res.data.length === size } } : res;
}

export async function loadLater(list: ListPage, w: MessageWindow, size = PAGE_SIZE): Promise<WindowResult> {
  const last = w.messages.at(-1);
  if (!last) return newestPage(list, size);
  const res = await list({ afterId: last.id, limit: size });
  return res.ok ? { ok: true, data: { ...w, messages: [...w.messages, ...res.data], hasLater: res.data.length === size } } : res;
}

/**
 * The same stretch again after a write anywhere (another tab starred, deleted or added a message): from
 * the window's first message on, as many as it shows — and, at the newest end, up to a page of new ones.
 */
export async function reread(list: ListPage, w: MessageWindow): Promise<WindowResult> {
  const first = w.messages[0];
  if (!first) return newestPage(list);
  const head = await list({ beforeId: first.id + 1, limit: 1 });
  if (!head.ok) return head;
  const fresh = head.data[0];
  // The first message itself went (deleted elsewhere): start again from the newest page.
  if (!fresh || fresh.id !== first.id) return newestPage(list);
  const want = Math.min(MAX_READ, w.messages.length - 1 + (w.hasLater ? 0 : PAGE_SIZE));
  if (want < 1) return { ok: true, data: { ...w, messages: [fresh] } };
  const rest = await list({ afterId: first.id, limit: want });
  if (!rest.ok) return rest;
  return { ok: true, data: { messages: [fresh, ...rest.data], hasEarlier: w.hasEarlier, hasLater: rest.data.length === want } };
}
