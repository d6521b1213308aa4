/**
 * Token counting with a real tokenizer (cl100k_base via gpt-tokenizer). Local models use other
 * vocabularies; `ratio` lets a model profile scale the count (e.g. 1.15 for a Llama tokenizer on CJK).
 *
 * The tokenizer's table (~1.2 MB of code, a 100k-entry map built when it loads) is loaded on first use, not
 * when the DB worker starts (issue 16: the cold start to the first recall, which counts no tokens): a caller
 * awaits `loadTokenizer()` before counting — the context build does, first thing.
 */
type Tokenizer = typeof import('gpt-tokenizer/encoding/cl100k_base');

let tokenizer: Tokenizer | null = null;
let loading: Promise<void> | null = null;

export function loadTokenizer(): Promise<void> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then((m) => {
    tokenizer = m;
  });
  return loading;
}

function loaded(): Tokenizer {
  if (!tokenizer) throw new Error('the tokenizer is not loaded yet: await loadTokenizer() before counting tokens');
  return tokenizer;
}

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
    count: (text) => (text === '' ? 0 : Math.ceil(loaded().countTokens(text) * ratio)),
    truncate(text, maxTokens) {
      if (maxTokens <= 0) return '';
      const limit = Math.floor(maxTokens / ratio);
      const { encode, decode } = loaded();
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
