/**
 * Node-only. `--pretty`: the same results as the JSON output, laid out for a person at a terminal.
 * Recall and store results get their own layout; any other result is shown as indented `key: value`
 * lines. Control characters are removed from user text, so a stored message cannot move the cursor or
 * recolour the terminal.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u001b]/g;
const clean = (s: string) => s.replace(CONTROL, '');
const oneLine = (s: string, max = 160) => {
  const t = clean(s).replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const when = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 16).replace('T', ' ') : '');

function lines(value: Json, indent = ''): string[] {
  if (value === null || typeof value !== 'object') return [`${indent}${typeof value === 'string' ? clean(value) : String(value)}`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}(none)`];
    if (value.every((v) => v === null || typeof v !== 'object')) return [`${indent}${value.map((v) => (typeof v === 'string' ? clean(v) : String(v))).join(', ')}`];
    return value.flatMap((v, i) => [`${indent}- ${i + 1}`, ...lines(v, `${indent}  `)]);
  }
  return Object.entries(value).flatMap(([k, v]) => {
    const label = k.replace(/_/g, ' ');
    if (v !== null && typeof v === 'object' && !(Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')))
      return [`${indent}${label}:`, ...lines(v, `${indent}  `)];
    return [`${indent}${label}: ${lines(v)[0]}`];
  });
}

function recall(r: { results: Record<string, Json>[]; total_searched: number; latency_ms: number }): string {
  if (r.results.length === 0) return `Nothing found (${r.total_searched} searched, ${r.latency_ms} ms).`;
  const rows = r.results.map((h, i) => {
    const head = `${i + 1}. [${Number(h.relevance).toFixed(2)}] ${when(h.created_at)} ${h.conversation_id}`;
    const body = h.is_summary ? `summary: ${oneLine(String(h.summary))}` : `${h.role} (turn_id ${h.turn_id}): ${oneLine(String(h.content))}`;
    return `${head}\n   ${body}`;
  });
  return `${rows.join('\n')}\n(${r.results.length} of ${r.total_searched} searched, ${r.latency_ms} ms)`;
}

const store = (r: Record<string, Json>) =>
  `Stored turn ${r.turn_id} in ${r.conversation_id} at ${when(r.stored_at)}${Array.isArray(r.symbols_extracted) && r.symbols_extracted.length ? ` — symbols: ${r.symbols_extracted.join(', ')}` : ''}`;

/** The human form of one command's result (`value` is what the JSON output would be). */
export function pretty(command: string, value: unknown): string {
  const v = value as Json;
  if (command === 'recall' && v && typeof v === 'object' && 'results' in v) return recall(v as never);
  if (command === 'store' && v && typeof v === 'object' && 'turn_id' in v) return store(v as Record<string, Json>);
  return lines(v).join('\n');
}

export function prettyError(e: { code: string; message: string }): string {
  return `engram: ${clean(e.message)} (${e.code})`;
}

/** A one-line progress bar for stderr at a terminal: `label ███████░░░ 1,234 / 5,678`. */
export function progressBar(label: string, done: number, total: number, width = 24): string {
  const f = total > 0 ? Math.min(1, done / total) : 1;
  const full = Math.round(f * width);
  return `\r${label} ${'█'.repeat(full)}${'░'.repeat(width - full)} ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`;
}
