import type { z } from 'zod';
import { EngineError } from '../errors';
import { formatPath } from '../validation';

/**
 * A model's JSON answer → a validated value. Small local models wrap JSON in ```json fences, add a
 * sentence around it, or (reasoning models) think aloud in <think>…</think> first, even when asked for
 * json_object: all tolerated. The message on failure names the field, never the model's text.
 */
export function parseJsonReply<T>(text: string, schema: z.ZodType<T>): T {
  const value = extractJson(text);
  if (value === undefined) {
    throw new EngineError('MODEL_UNAVAILABLE', 'The model did not answer with JSON. Try again, or choose a model that supports JSON output.', {
      reason: 'bad-response',
    });
  }
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const first = res.error.issues[0];
  const field = first ? formatPath(first.path) || '(root)' : '(root)';
  throw new EngineError(
    'MODEL_UNAVAILABLE',
    `The model's JSON answer has an invalid \`${field}\`. Try again, or choose a more capable model.`,
    { reason: 'bad-response', fields: res.error.issues.map((i) => formatPath(i.path) || '(root)') },
  );
}

/** The first JSON value found in text, or undefined. */
export function extractJson(text: string): unknown {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(cleaned)?.[1];
  for (const candidate of [fenced, cleaned, outermost(cleaned, '{', '}'), outermost(cleaned, '[', ']')]) {
    if (candidate === undefined) continue;
    try {
      return JSON.parse(candidate.trim());
    } catch {
      // try the next, looser candidate
    }
  }
  return undefined;
}

function outermost(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start !== -1 && end > start ? text.slice(start, end + 1) : undefined;
}
