import { z } from 'zod';
import type { ChatMessage, ChatRequest, ChatResult, ToolCall, Usage } from './types';

/**
 * The OpenAI chat-completions wire format, both ways. Response schemas are loose on purpose: servers
 * (Ollama, llama.cpp, LM Studio, vLLM) add fields of their own, omit optional ones and send null for
 * absent content. Only what we read is checked.
 */

export function chatBody(model: string, req: ChatRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: req.messages.map(wireMessage), stream };
  // Usage arrives in a last chunk only when asked for; servers that do not know the option ignore it.
  if (stream) body.stream_options = { include_usage: true };
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  }
  if (req.json) body.response_format = { type: 'json_object' };
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
  return body;
}

function wireMessage(m: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    out.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  if (m.role === 'tool') {
    if (m.toolCallId !== undefined) out.tool_call_id = m.toolCallId;
    if (m.name !== undefined) out.name = m.name;
  }
  return out;
}

/** Some servers send tool arguments as an object rather than JSON text. */
const argumentsSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();

const usageSchema = z.looseObject({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() });

const toolCallSchema = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: argumentsSchema }),
});

export const completionSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({ content: z.string().nullish(), tool_calls: z.array(toolCallSchema).nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: usageSchema.nullish(),
});

export const toolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: argumentsSchema }).nullish(),
});
export type ToolCallDelta = z.output<typeof toolCallDeltaSchema>;

export const chunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        delta: z.looseObject({ content: z.string().nullish(), tool_calls: z.array(toolCallDeltaSchema).nullish() }).nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: usageSchema.nullish(),
  /** Ollama and llama.cpp report a failure that happens mid-stream as a chunk with `error`. */
  error: z.unknown().optional(),
});
export type Chunk = z.output<typeof chunkSchema>;

export const modelsSchema = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });

export const embeddingsSchema = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int().nonnegative().optional(), embedding: z.array(z.number()) })),
});

export function argumentsText(value: z.output<typeof argumentsSchema>): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function toUsage(u: z.output<typeof usageSchema> | null | undefined): Usage | undefined {
  if (!u || (u.prompt_tokens === undefined && u.completion_tokens === undefined)) return undefined;
  return { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 };
}

export function toChatResult(c: z.output<typeof completionSchema>): ChatResult {
  const choice = c.choices[0]!;
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((t, i) => ({
    id: t.id || `call_${i}`,
    name: t.function.name ?? '',
    arguments: argumentsText(t.function.arguments) || '{}',
  }));
  const usage = toUsage(c.usage);
  return {
    text: choice.message.content ?? '',
    toolCalls,
    finishReason: finishReasonOf(choice.finish_reason, toolCalls.length > 0),
    ...(usage ? { usage } : {}),
  };
}

/** Older Ollama versions say 'stop' even when the answer is a tool call; callers look at toolCalls anyway. */
export function finishReasonOf(raw: string | null | undefined, hasToolCalls: boolean): string {
  if (hasToolCalls && (raw === 'stop' || !raw)) return 'tool_calls';
  return raw || 'stop';
}
