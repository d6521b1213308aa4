/**
 * Test support for generations (chat turns, skill runs): a scripted model provider. Not used by the app.
 */
import { createHeuristicProvider } from '../../domain/llm/heuristic';
import { EngineError } from '../../domain/errors';
import type { ModelProvider, StreamEvent } from '../../domain/llm/types';

/** A model that answers with `reply(prompt)` in small pieces; `fail` makes it throw instead (after `failAfter` pieces). */
export function scriptedProvider(opts: {
  reply: (messages: { role: string; content: string }[]) => string;
  fail?: EngineError;
  /** Pieces streamed before `fail` is thrown (default 0: it fails before the first). */
  failAfter?: number;
  /** Pieces are yielded with a pause, so a Stop can land mid-stream. */
  pauseMs?: number;
  /** Called when the request goes out (before the first piece). */
  onRequest?: () => void;
}): ModelProvider {
  const base = createHeuristicProvider();
  return {
    ...base,
    kind: 'openai-compatible',
    canGenerate: true,
    chatStream(req): AsyncIterable<StreamEvent> {
      return {
        async *[Symbol.asyncIterator]() {
          opts.onRequest?.();
          const text = opts.reply(req.messages);
          let n = 0;
          for (const piece of text.match(/[\s\S]{1,4}/gu) ?? []) {
            if (opts.fail && n >= (opts.failAfter ?? 0)) throw opts.fail;
            if (req.signal?.aborted) throw new EngineError('CANCELED', 'The model request was stopped before it finished.');
            if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
            if (req.signal?.aborted) throw new EngineError('CANCELED', 'The model request was stopped before it finished.');
            n++;
            yield { type: 'delta', text: piece };
          }
          if (opts.fail) throw opts.fail;
          yield { type: 'done', finishReason: 'stop' };
        },
      };
    },
  };
}
