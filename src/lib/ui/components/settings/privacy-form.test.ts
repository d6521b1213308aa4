import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_SETTINGS } from '../../../domain/llm/settings';
import { namesToText, parsePrivacy, textToNames } from './privacy-form';

describe('the name-replacement form', () => {
  it('one name per line: trimmed, blank lines dropped, each name once', () => {
    expect(textToNames(' Lena \n\nOmar\nlena\r\n李雷\n')).toEqual(['Lena', 'Omar', '李雷']);
    expect(textToNames(namesToText(['Lena', 'Omar']))).toEqual(['Lena', 'Omar']);
  });

  it('keeps every other model setting as stored', () => {
    const current = { ...DEFAULT_MODEL_SETTINGS, model: 'qwen', baseUrl: 'http://127.0.0.1:8080/v1' };
    expect(parsePrivacy(current, { pseudonymize: true, namesText: 'Lena' })).toEqual({ ok: true, value: { ...current, pseudonymize: true, personNames: ['Lena'] } });
  });

  it('names the line of a name that is too long, and refuses more than 500 names, changing nothing', () => {
    expect(parsePrivacy(DEFAULT_MODEL_SETTINGS, { pseudonymize: true, namesText: `Lena\n${'x'.repeat(101)}` })).toEqual({
      ok: false,
      error: { kind: 'tooLong', limit: 100, line: 2 },
    });
    const many = Array.from({ length: 501 }, (_, i) => `Name ${i}`).join('\n');
    expect(parsePrivacy(DEFAULT_MODEL_SETTINGS, { pseudonymize: true, namesText: many })).toEqual({ ok: false, error: { kind: 'tooBig', limit: 500 } });
  });
});
