/** Plain tables for the terminal and Markdown tables for bench/results/latest.md. */
export type Cell = string | number | null | undefined;

export function formatCell(value: Cell, digits = 3): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '–';
    return Number.isInteger(value) ? String(value) : value.toFixed(digits);
  }
  return value;
}

/** East Asian wide characters take two terminal columns (Hangul, CJK, full-width forms). */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const width = (s: string) => [...s].reduce((w, ch) => w + (WIDE.test(ch) ? 2 : 1), 0);
const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - width(s)));

export function textTable(header: readonly string[], rows: readonly (readonly Cell[])[], digits = 3): string {
  const cells = [header.map((h) => h), ...rows.map((r) => r.map((c) => formatCell(c, digits)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => width(r[i] ?? ''))));
  const line = (r: readonly string[]) => r.map((c, i) => pad(c, widths[i] ?? 0)).join('  ').trimEnd();
  return [line(cells[0] ?? []), widths.map((w) => '─'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function markdownTable(header: readonly string[], rows: readonly (readonly Cell[])[], digits = 3): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${header.map(esc).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map((c) => esc(formatCell(c, digits))).join(' | ')} |`),
  ].join('\n');
}
