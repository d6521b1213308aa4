import { EngineError } from '../errors';
import { collectStream } from './chat-stream';
import { canceledError } from './failures';
import type { ChatMessage, ChatRequest, ChatResult, ModelProvider, ToolCall, ToolSpec } from './types';

/**
 * The tool-call round trip: the model asks for tools, we run them, send their results as `role:'tool'`
 * messages, and the model continues. Bounded: at most `maxRounds` rounds run tools; then the model is
 * asked once more with no tools offered, so it must answer in words. A model that misbehaves (unknown
 * tool, arguments that are not JSON, a tool that fails) gets an error message it can read, never a crash.
 *
 *   request ─▶ model ─▶ tool_calls? ─no─▶ result
 *                ▲          │yes (round ≤ maxRounds)
 *                └─ tool messages ◀─ run each tool
 */
export interface Tool {
  spec: ToolSpec;
  run(args: unknown, signal?: AbortSignal): Promise<unknown>;
}

export interface RunWithToolsOptions {
  provider: ModelProvider;
  request: ChatRequest;
  tools: Record<string, Tool>;
  /** Rounds that may run tools; default 3. */
  maxRounds?: number;
  onToolCall?(call: ToolCall, result: unknown): void;
  /** When given, the model's text is streamed through it as it arrives. */
  onDelta?(text: string): void;
}

export const DEFAULT_TOOL_ROUNDS = 3;

export async function runWithTools(opts: RunWithToolsOptions): Promise<{ result: ChatResult; transcript: ChatMessage[] }> {
  const { provider, request, tools } = opts;
  const maxRounds = Math.max(0, opts.maxRounds ?? DEFAULT_TOOL_ROUNDS);
  const specs = Object.values(tools).map((t) => t.spec);
  const transcript: ChatMessage[] = [...request.messages];

  for (let round = 0; ; round++) {
    const offer = round < maxRounds && specs.length > 0;
    const req: ChatRequest = { ...request, messages: [...transcript] };
    if (offer) req.tools = specs;
    else delete req.tools;
    const result = opts.onDelta ? await collectStream(provider.chatStream(req), opts.onDelta) : await provider.chat(req);
    // Tool calls the model makes when none were offered are ignored: its text is the answer.
    if (!offer || result.toolCalls.length === 0) {
      transcript.push({ role: 'assistant', content: result.text });
      return { result: offer ? result : { ...result, toolCalls: [] }, transcript };
    }
    transcript.push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
    for (const call of result.toolCalls) {
      const output = await runOne(call, tools, request.signal);
      opts.onToolCall?.(call, output);
      transcript.push({ role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify(output) ?? 'null' });
    }
  }
}

/** Runs one call; failures the model caused become `{ error }` results. The user's stop is not one of them. */
async function runOne(call: ToolCall, tools: Record<string, Tool>, signal?: AbortSignal): Promise<unknown> {
  const tool = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
  if (!tool) return { error: `Unknown tool '${call.name}'. Available tools: ${Object.keys(tools).join(', ') || 'none'}.` };
  let args: unknown;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return { error: `The arguments for '${call.name}' were not valid JSON. Send one JSON object matching the tool's parameters.` };
  }
  if (signal?.aborted) throw canceledError();
  try {
    return await tool.run(args, signal);
  } catch (err) {
    if (err instanceof EngineError && err.code === 'CANCELED') throw err;
    if (signal?.aborted) throw canceledError();
    // EngineError messages are written for people and never carry user text; anything else is a bug: hide it.
    if (err instanceof EngineError) return { error: err.message, code: err.code };
    return { error: `The tool '${call.name}' failed. Answer without it.` };
  }
}
