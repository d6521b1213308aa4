import { describe, expect, it } from 'vitest';
import { formatCell, markdownTable, textTable } from './table';

describe('tables', () => {
  it('formats numbers to fixed digits, integers as they are, and missing values as a dash', () => {
    expect(formatCell(0.53412)).toBe('0.534');
    expect(formatCell(12)).toBe('12');
    expect(formatCell(null)).toBe('–');
    expect(formatCell(Number.NaN)).toBe('–');
  });

  it('aligns columns, counting CJK characters as two columns wide', () => {
    const lines = textTable(['k', 'v'], [['召回', 1], ['ab', 2.5]]).split('\n');
    expect(lines[0]).toBe('k     v');
    expect(lines[2]).toBe('召回  1');
    expect(lines[3]).toBe('ab    2.500');
  });

  it('writes Markdown with escaped pipes', () => {
    expect(markdownTable(['a|b', 'n'], [['x', 0.5]])).toBe('| a\\|b | n |\n|---|---|\n| x | 0.500 |');
  });
});
