import { describe, expect, it } from 'vitest';
import { contract, SELECTION_PART_MAX_CHARS } from '../../../engine/protocol/contract';
import { applyModeOf, applyResult, MAX_PART, revertResult, selectionForContext, splitSelection } from './selection';

describe('the selection a skill works on', () => {
  it.each([
    { name: 'a middle word', start: 4, end: 7, want: { from: 4, to: 7, before: 'The ', text: 'cat', after: ' sat.' } },
    { name: 'selected backwards', start: 7, end: 4, want: { from: 4, to: 7, before: 'The ', text: 'cat', after: ' sat.' } },
    { name: 'a cursor only', start: 12, end: 12, want: { from: 12, to: 12, before: 'The cat sat.', text: '', after: '' } },
    { name: 'past the end', start: 50, end: 90, want: { from: 12, to: 12, before: 'The cat sat.', text: '', after: '' } },
  ])('$name', ({ start, end, want }) => {
    expect(splitSelection('The cat sat.', start, end)).toEqual(want);
  });

  it('never splits an emoji in half', () => {
    const text = 'a😀b';
    const sel = splitSelection(text, 2, 4);
    expect(sel.text).toBe('😀b');
    expect(sel.before).toBe('a');
  });

  it('keeps the text nearest the selection when a side is longer than the engine accepts', () => {
    const before = `${'x'.repeat(MAX_PART)}NEAR`;
    const parts = selectionForContext(splitSelection(`${before}SEL`, before.length, before.length + 3));
    expect(parts.before).toHaveLength(MAX_PART);
    expect(parts.before.endsWith('NEAR')).toBe(true);
    expect(parts.text).toBe('SEL');
  });

  it("cuts each part to the contract's one limit: context.build takes what it sends, and not a character more", () => {
    expect(MAX_PART).toBe(SELECTION_PART_MAX_CHARS);
    const long = 'y'.repeat(SELECTION_PART_MAX_CHARS + 7);
    const parts = selectionForContext(splitSelection(`${long}${long}${long}`, long.length, long.length * 2));
    const input = { kind: 'skill', skillId: 'continue', message: 'go on', selection: parts, locale: 'en' };
    expect(contract['context.build'].input.safeParse(input).success).toBe(true);
    const over = { ...input, selection: { ...parts, text: `${parts.text}y` } };
    expect(contract['context.build'].input.safeParse(over).success).toBe(false);
  });
});

describe('putting a result into the document', () => {
  const content = 'He walked in. The room was dark. He left.';
  const sel = splitSelection(content, 14, 32); // "The room was dark."

  it.each([
    { mode: 'replace', want: 'He walked in. Darkness filled the room. He left.', at: [14, 39] },
    { mode: 'insert-after', want: 'He walked in. The room was dark.Darkness filled the room. He left.', at: [32, 57] },
    { mode: 'report', want: content, at: [14, 32] },
  ] as const)('$mode', ({ mode, want, at }) => {
    const applied = applyResult({ content, sel, final: 'Darkness filled the room.', mode });
    expect(applied?.content).toBe(want);
    expect([applied?.from, applied?.to]).toEqual(at);
  });

  it('finds the selection again when text before it changed, if it occurs once', () => {
    const applied = applyResult({ content: `Yes. ${content}`, sel, final: 'X.', mode: 'replace' });
    expect(applied?.content).toBe('Yes. He walked in. X. He left.');
  });

  it('refuses when the selected text is gone or ambiguous', () => {
    expect(applyResult({ content: 'Something else entirely.', sel, final: 'X', mode: 'replace' })).toBeNull();
    const twice = 'The room was dark. The room was dark.';
    expect(applyResult({ content: `!${twice}`, sel: splitSelection(twice, 0, 18), final: 'X', mode: 'replace' })).toBeNull();
  });

  it.each(['replace', 'insert-after'] as const)('undo of %s restores the original document', (mode) => {
    const applied = applyResult({ content, sel, final: 'Darkness filled the room.', mode })!;
    expect(revertResult({ content: applied.content, applied, final: 'Darkness filled the room.', original: sel.text, mode })).toBe(content);
  });

  it('undo refuses once the accepted text was edited', () => {
    const applied = applyResult({ content, sel, final: 'Darkness.', mode: 'replace' })!;
    const edited = applied.content.replace('Darkness.', 'Light.');
    expect(revertResult({ content: edited, applied, final: 'Darkness.', original: sel.text, mode: 'replace' })).toBeNull();
  });

  it.each([
    { id: 'continue', needsSelection: false, want: 'insert-after' },
    { id: 'polish', needsSelection: true, want: 'replace' },
    { id: 'summarize', needsSelection: true, want: 'replace' },
    { id: 'consistency-check', needsSelection: true, want: 'report' },
    { id: 'custom-rewrite', needsSelection: true, want: 'replace' },
    { id: 'custom-extend', needsSelection: false, want: 'insert-after' },
  ])('$id applies as $want', ({ id, needsSelection, want }) => {
    expect(applyModeOf({ id, needsSelection })).toBe(want);
  });
});
