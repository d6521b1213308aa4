/**
 * Where a layer's source citation leads (the inspector's "sources"): memories open in the memory page,
 * conversation turns in the chat, files are shown as their project-relative path (never a link out).
 */
export interface SourceView {
  label: string;
  href: string | null;
  kind: 'memory' | 'turn' | 'session' | 'file' | 'rule' | 'other';
}

const enc = encodeURIComponent;

export function sourceView(source: string, run: { sessionId: string | null }): SourceView {
  if (source.startsWith('memory:')) return { label: source, href: `/memory?id=${enc(source.slice(7))}`, kind: 'memory' };
  if (source.startsWith('turn:')) {
    const id = source.slice(5);
    return { label: source, href: run.sessionId ? `/chat?session=${enc(run.sessionId)}&message=${enc(id)}` : null, kind: 'turn' };
  }
  if (source.startsWith('session:')) return { label: source, href: `/chat?session=${enc(source.slice(8))}`, kind: 'session' };
  if (source.startsWith('.engram/')) return { label: source, href: null, kind: 'file' };
  if (source.startsWith('file:')) return { label: source.slice(5), href: null, kind: 'file' };
  if (source.startsWith('preference:')) return { label: source, href: null, kind: 'rule' };
  return { label: source, href: null, kind: 'other' };
}
