import type { z } from 'zod';

/**
 * The model port. Engram talks to a model only through an OpenAI-compatible HTTP endpoint or to no model
 * at all (ARCHITECTURE §7). Everything above this port sees these types, never the wire format.
 */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model wrote it: it may be invalid, the caller decides. */
  arguments: string;
}

export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** On an assistant message that asked for tools. */
  toolCalls?: ToolCall[];
  /** On a tool message: which call it answers. */
  toolCallId?: string;
  /** On a tool message: the tool's name (Ollama matches results by name). */
  name?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  /** Ask for one JSON object (response_format json_object). */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
  /** The user's stop: ends the request with CANCELED. */
  signal?: AbortSignal;
  /** The longest the server may stay silent (before answering, or between stream chunks); default from settings. */
  timeoutMs?: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export type StreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool_calls'; calls: ToolCall[] }
  | { type: 'done'; finishReason: string; usage?: Usage };

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage?: Usage;
}

/**
 * Why a model call failed, as a fixed tag the UI can act on. `cors` and `server-down` cannot always be told
 * apart in a browser; see failures.ts for the heuristic.
 */
export type ModelFailureReason =
  | 'server-down'
  | 'cors'
  | 'unknown-model'
  | 'unauthorized'
  | 'http-error'
  | 'bad-response'
  | 'timeout'
  | 'no-model-configured';

export interface ModelFailure {
  code: 'MODEL_UNAVAILABLE' | 'TIMEOUT';
  reason: ModelFailureReason;
  message: string;
}

/** What "test connection" shows. `ok` means: chat requests with these settings can be expected to work. */
export interface ConnectionReport {
  ok: boolean;
  /** Model ids the server lists (empty when it could not be asked). */
  models: string[];
  /** Whether the configured model is among them; null when no model is set or the list is unavailable. */
  modelFound: boolean | null;
  latencyMs: number;
  error?: ModelFailure;
}

export type ProviderKind = 'openai-compatible' | 'heuristic';

export interface ModelProvider {
  readonly kind: ProviderKind;
  /** false for heuristic: the UI says replies need a model. */
  readonly canGenerate: boolean;
  chatStream(req: ChatRequest): AsyncIterable<StreamEvent>;
  chat(req: ChatRequest): Promise<ChatResult>;
  /**
   * JSON output validated by a zod schema (response_format json_object; ```json fences tolerated);
   * invalid → EngineError('MODEL_UNAVAILABLE', …, { reason: 'bad-response' }).
   */
  json<T>(req: ChatRequest, schema: z.ZodType<T>): Promise<T>;
  /** One vector per text, in input order. */
  embed(texts: string[], opts?: { signal?: AbortSignal }): Promise<number[][]>;
  testConnection(opts?: { signal?: AbortSignal }): Promise<ConnectionReport>;
}
