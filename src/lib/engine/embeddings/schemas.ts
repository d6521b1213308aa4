import { z } from 'zod';

/** An embedding model's name as the server knows it (nomic-embed-text, bge-m3, text-embedding-3-small …). */
export const model = z.string().trim().min(1).max(200);

export const endpoint = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().max(500),
  model,
  timeoutMs: z.number().int().min(1000).max(600_000),
});

export const item = z.strictObject({
  kind: z.enum(['turn', 'memory']),
  id: z.number().int().positive(),
  vector: z.array(z.number().finite()).min(1).max(8192),
});
