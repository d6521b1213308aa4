import { z } from 'zod';

/**
 * Where the model lives. Kept in Dexie on this device only: never in the SQLite database, so never in an
 * export, and the key is never logged.
 */
export const modelSettingsSchema = z
  .strictObject({
    provider: z.enum(['heuristic', 'openai-compatible']).default('heuristic'),
    /** An OpenAI-compatible base URL; the default is a local Ollama. */
    baseUrl: z.url({ protocol: /^https?$/ }).default('http://localhost:11434/v1'),
    model: z.string().max(200).default(''),
    apiKey: z.string().max(500).default(''),
    embeddingModel: z.string().max(200).default(''),
    timeoutMs: z.number().int().min(1000).max(600_000).default(60_000),
    /** Token budget scaling for this model's tokenizer relative to cl100k (context engine). */
    tokenRatio: z.number().min(0.5).max(3).default(1),
    contextWindow: z.number().int().min(1024).max(2_000_000).default(8192),
    /** 003 Security & Privacy: replace these person names by placeholders in everything sent to the model. */
    pseudonymize: z.boolean().default(false),
    personNames: z.array(z.string().trim().min(1).max(100)).max(500).default([]),
  })
  .default({
    provider: 'heuristic',
    baseUrl: 'http://localhost:11434/v1',
    model: '',
    apiKey: '',
    embeddingModel: '',
    timeoutMs: 60_000,
    tokenRatio: 1,
    contextWindow: 8192,
    pseudonymize: false,
    personNames: [],
  });

export type ModelSettings = z.output<typeof modelSettingsSchema>;
export const DEFAULT_MODEL_SETTINGS: ModelSettings = modelSettingsSchema.parse(undefined);

/**
 * The embedding endpoint the settings ask for (issue 18): an OpenAI-compatible provider with an embedding model
 * named. The chat model is never used for embeddings by default — an empty "embedding model" means meaning-based
 * recall is off, as the settings page says.
 */
export function embeddingEndpointOf(settings: ModelSettings): { baseUrl: string; apiKey: string; model: string; timeoutMs: number } | null {
  const model = settings.embeddingModel.trim();
  if (settings.provider !== 'openai-compatible' || !model) return null;
  return { baseUrl: settings.baseUrl, apiKey: settings.apiKey, model, timeoutMs: settings.timeoutMs };
}
