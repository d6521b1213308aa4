import { countTokens as countCl100k, encode, decode } from 'gpt-tokenizer/encoding/cl100k_base';

/**
 * Token counting with a real tokenizer (cl100k_base via gpt-tokenizer). Local models use other
 * vocabularies; `ratio` lets a model profile scale the count (e.g. 1.15 for a Llama tokenizer on CJK).
 */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
  /** The longest prefix of text within maxTokens (cut on a token boundary). */
  truncate(text: string, maxTokens: number): string;
}

export function createTokenCounter(opts: { name?: string; ratio?: number } = {}): TokenCounter {
  const ratio = opts.ratio ?? 1;
  return {
    name: opts.name ?? 'cl100k_base',
    count: (text) => (text === '' ? 0 : Math.ceil(countCl100k(text) * ratio)),
    truncate(text, maxTokens) {
      if (maxTokens <= 0) return '';
      const limit = Math.floor(maxTokens / ratio);
      const tokens = encode(text);
      if (tokens.length <= limit) return text;
      // Decoding a cut in the middle of a multi-byte character yields U+FFFD: drop it.
      return decode(tokens.slice(0, limit)).replace(/\uFFFD+$/u, '');
    },
  };
}

export const defaultTokenCounter = createTokenCounter();

export function countTokens(text: string): number {
  return defaultTokenCounter.count(text);
}
