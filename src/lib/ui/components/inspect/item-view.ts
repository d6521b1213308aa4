/**
 * What a person reads for one thing the model was given (issue 15 "provenance people read"): its text,
 * what kind of thing it is, who said it and when (a turn), where it lives (a conversation's title, a
 * file's path) and a link there. The item's id stays only as a copyable detail.
 *
 * Runs stored before items carried their text have none: the view says so (`text: null`) and the page
 * fills memories in from the memory store (`texts`), so a person still reads words, not ids.
 */
import type { KeptItem } from '../../../domain/context';
import { memoryHref } from '../memory/tabs';

export type ItemKind =
  | 'memory'
  | 'turn'
  | 'recalled-turn'
  | 'summary'
  | 'conversation'
  | 'rule'
  | 'file'
  | 'profile'
  | 'episode'
  | 'working'
  | 'message'
  | 'selection'
  | 'instructions'
  | 'other';

export interface ItemView {
  id: string;
  kind: ItemKind;
  text: string | null;
  role: 'user' | 'assistant' | null;
  createdAt: number | null;
  /** A conversation's or chapter's title, or a file's project-relative path. */
  where: string | null;
  href: string | null;
}

const enc = encodeURIComponent;
const chat = (session: string | null, message?: string) =>
  session ? `/chat?session=${enc(session)}${message ? `&message=${enc(message)}` : ''}` : null;

function kindOf(id: string, kind: string | undefined): ItemKind {
  if (id.startsWith('memory:')) return 'memory';
  if (id.startsWith('recall:turn:')) return 'recalled-turn';
  if (id.startsWith('recall:summary:') || id.startsWith('summary:') || id.startsWith('compact:')) return 'summary';
  if (id.startsWith('turn:')) return 'turn';
  if (id.startsWith('session:')) return 'conversation';
  if (id.startsWith('preference:') || id.startsWith('default:')) return 'rule';
  if (id.startsWith('file:') || id.startsWith('.engram/')) return 'file';
  if (id.startsWith('episode:')) return 'episode';
  if (id === 'profile' || id.startsWith('profile:')) return 'profile';
  if (id === 'working-memory' || id.startsWith('working-memory:')) return 'working';
  if (id === 'message') return 'message';
  if (id === 'selection' || id.startsWith('surround:')) return 'selection';
  if (id.startsWith('system:') || id.startsWith('skill:') || kind === 'system' || kind === 'skill') return 'instructions';
  return 'other';
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && v !== '—' ? v : null);

export function itemView(item: Pick<KeptItem, 'id'> & Partial<KeptItem>, run: { sessionId: string | null }, texts?: ReadonlyMap<string, string>): ItemView {
  const { id } = item;
  const meta = item.meta ?? {};
  const kind = kindOf(id, item.kind);
  const role = meta.role === 'user' || meta.role === 'assistant' ? meta.role : null;
  const createdAt = typeof meta.createdAt === 'number' ? meta.createdAt : null;
  const conversation = str(meta.conversationId);
  let where = str(meta.title);
  let href: string | null = null;
  switch (kind) {
    case 'memory':
      href = memoryHref({ tab: 'memories', id: id.slice('memory:'.length) });
      break;
    case 'turn':
      href = chat(run.sessionId, id.slice('turn:'.length));
      break;
    case 'recalled-turn':
      href = chat(conversation, id.slice('recall:turn:'.length));
      break;
    case 'summary':
      href = chat(conversation ?? run.sessionId);
      break;
    case 'conversation':
      href = chat(id.slice('session:'.length));
      break;
    case 'rule':
      href = memoryHref({ tab: 'preferences' });
      break;
    case 'profile':
      href = memoryHref({ tab: 'profile' });
      break;
    case 'file':
      where = id.startsWith('file:') ? id.slice('file:'.length) : id;
      break;
    default:
  }
  const text = str(item.text) ?? texts?.get(id) ?? null;
  return { id, kind, text, role, createdAt, where, href };
}

/** Every kept item of a run by id: the trace's references and the reply card look their words up here. */
export function keptItemsById(layers: readonly { items: readonly KeptItem[] }[]): Map<string, KeptItem> {
  return new Map(layers.flatMap((l) => (l.items ?? []).map((i) => [i.id, i] as const)));
}

/** The memory ids among a run's items that carry no text (runs stored before issue 15, or pruned). */
export function memoryIdsWithoutText(layers: readonly { items: readonly KeptItem[] }[]): string[] {
  return layers.flatMap((l) => l.items ?? []).filter((i) => i.id.startsWith('memory:') && !str(i.text)).map((i) => i.id.slice('memory:'.length));
}

/** The counts a reply's "what the AI was given" card leads with, in a fixed order; kinds with none left out. */
export const GIVEN_KINDS: readonly ItemKind[] = ['memory', 'rule', 'profile', 'file', 'summary', 'recalled-turn', 'conversation', 'episode', 'turn'];

export function givenCounts(views: readonly ItemView[]): { kind: ItemKind; count: number }[] {
  return GIVEN_KINDS.map((kind) => ({ kind, count: views.filter((v) => v.kind === kind).length })).filter((c) => c.count > 0);
}
