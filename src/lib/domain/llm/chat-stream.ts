import { modelError } from './failures';
import type { ModelHttp } from './model-http';
import { chatBody, chunkSchema, completionSchema, toChatResult, type Chunk } from './openai-wire';
import { createRequestControl } from './request-control';
import { createSseParser } from './sse';
import { createStreamAssembler } from './stream-assembler';
import type { ChatRequest, ChatResult, StreamEvent } from './types';

const PATH = '/chat/completions';

/**
 * One streamed chat completion as StreamEvents. Lazy: the request starts at the first `next()`.
 * Stopping — the user's signal, the silence timeout, or the consumer leaving the loop — aborts the fetch
 * and cancels the reader, so the connection is released at once.
 */
export async function* streamChat(opts: { http: ModelHttp; model: string; req: ChatRequest; timeoutMs: number }): AsyncGenerator<StreamEvent> {
  const { http, req, timeoutMs } = opts;
  const control = createRequestControl({ ...(req.signal ? { signal: req.signal } : {}), timeoutMs });
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let started = false;
  try {
    const res = await http.open({ path: PATH, body: chatBody(opts.model, req, true), control, timeoutMs });
    control.kick();
    started = true;
    // Some servers ignore stream:true (or drop it when tools are offered) and answer with one JSON body.
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      yield* resultEvents(toChatResult(await http.readJson(res, completionSchema, PATH)));
      return;
    }
    if (!res.body) throw modelError('bad-response', http.ctx, { endpoint: PATH });
    reader = res.body.getReader();
    const sse = createSseParser();
    const assembler = createStreamAssembler();
    let sawDone = false;
    const take = (data: string[]): StreamEvent[] => {
      const out: StreamEvent[] = [];
      for (const d of data) {
        if (sawDone) break;
        if (d.trim() === '[DONE]') sawDone = true;
        else out.push(...assembler.push(parseChunk(http, d)));
      }
      return out;
    };
    while (!sawDone) {
      const { done, value } = await reader.read();
      if (done) break;
      control.kick();
      yield* take(sse.push(value));
    }
    if (!sawDone) yield* take(sse.end());
    // Without [DONE] and without a finish_reason the answer was cut off, not finished.
    if (!sawDone && !assembler.finished) throw modelError('http-error', http.ctx, { midStream: true, endpoint: PATH });
    yield* assembler.finish();
  } catch (err) {
    throw await http.failure(err, { control, path: PATH, timeoutMs, midStream: started });
  } finally {
    control.dispose();
    control.abort();
    if (reader) void reader.cancel().catch(() => {});
  }
}

function parseChunk(http: ModelHttp, data: string): Chunk {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw modelError('bad-response', http.ctx, { endpoint: PATH });
  }
  const parsed = chunkSchema.safeParse(value);
  if (!parsed.success) throw modelError('bad-response', http.ctx, { endpoint: PATH });
  if (parsed.data.error !== undefined && parsed.data.error !== null) throw modelError('http-error', http.ctx, { midStream: true, endpoint: PATH });
  return parsed.data;
}

/** A whole result as the events a stream would have produced. */
export function* resultEvents(result: ChatResult): Generator<StreamEvent> {
  if (result.text) yield { type: 'delta', text: result.text };
  if (result.toolCalls.length) yield { type: 'tool_calls', calls: result.toolCalls };
  yield { type: 'done', finishReason: result.finishReason, ...(result.usage ? { usage: result.usage } : {}) };
}

/** Collect a stream into one result, passing text on as it arrives. */
export async function collectStream(events: AsyncIterable<StreamEvent>, onDelta?: (text: string) => void): Promise<ChatResult> {
  let text = '';
  const result: ChatResult = { text: '', toolCalls: [], finishReason: 'stop' };
  for await (const ev of events) {
    if (ev.type === 'delta') {
      text += ev.text;
      onDelta?.(ev.text);
    } else if (ev.type === 'tool_calls') result.toolCalls = ev.calls;
    else {
      result.finishReason = ev.finishReason;
      if (ev.usage) result.usage = ev.usage;
    }
  }
  result.text = text;
  return result;
}
