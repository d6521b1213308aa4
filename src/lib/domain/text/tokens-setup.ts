/** Vitest setup: tests count tokens synchronously from their first line, so the tokenizer is loaded before them. */
import { loadTokenizer } from './tokens';

await loadTokenizer();
