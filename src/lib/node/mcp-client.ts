/**
 * Node-only test support: the official MCP SDK client talking to an `engram mcp` process over stdio —
 * the source entry (tsx) or an installed command. Shared by the MCP test and the packed-install test.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';

export async function connectMcp(command: string, args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), NODE_NO_WARNINGS: '1', ...env }, stderr: 'pipe' });
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type CallResult = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

/** Every tool once, a bad input as a tool error, then the server still answers: the whole MCP check. */
export async function exerciseEngramTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(
    ['add_memory', 'delete_memory', 'get_profile', 'list_sessions', 'search_conversations', 'search_memories', 'store_turn', 'update_memory'].sort(),
  );
  const store = tools.find((t) => t.name === 'store_turn');
  expect(store?.inputSchema.required).toEqual(['sessionId', 'role', 'content']);

  const stored = await callTool(client, 'store_turn', { sessionId: 'mcp-1', role: 'user', content: 'processPayment in src/payment.ts races under load' });
  expect(stored.isError).toBeFalsy();
  expect(stored.structuredContent).toMatchObject({ conversationId: 'mcp-1', symbolsExtracted: expect.arrayContaining(['processPayment']) });

  const found = await callTool(client, 'search_conversations', { query: 'processPayment race', limit: 3 });
  const results = (found.structuredContent as { results: { conversationId: string; explain: { terms: { symbol: number } } }[] }).results;
  expect(results[0]).toMatchObject({ conversationId: 'mcp-1' });
  expect(results[0]?.explain.terms.symbol).toBeGreaterThan(0);

  const added = await callTool(client, 'add_memory', { content: 'Prefers pnpm over npm for monorepos', category: 'preference' });
  const memoryId = (added.structuredContent as { id: string }).id;
  const updated = await callTool(client, 'update_memory', { id: memoryId, content: 'Prefers pnpm over npm for every repository' });
  expect(updated.structuredContent).toMatchObject({ id: memoryId, version: 2 });
  const memories = await callTool(client, 'search_memories', { query: 'which package manager for a repository', topN: 3 });
  const items = (memories.structuredContent as { items: { memory: { id: string }; score: { terms: Record<string, number> } }[] }).items;
  expect(items[0]?.memory.id).toBe(memoryId);
  expect(Object.keys(items[0]?.score.terms ?? {})).toEqual(expect.arrayContaining(['keyword', 'recency', 'confidence']));

  const profile = await callTool(client, 'get_profile', {});
  expect(profile.structuredContent).toMatchObject({ enabled: true });
  const sessions = await callTool(client, 'list_sessions', { limit: 10 });
  expect(sessions.structuredContent).toMatchObject({ total: 1, items: [{ id: 'mcp-1' }] });
  const deleted = await callTool(client, 'delete_memory', { id: memoryId });
  expect(deleted.structuredContent).toMatchObject({ deleted: true, id: memoryId });

  // Refused inputs answer tool errors naming the field; the server stays up.
  const bad = await callTool(client, 'store_turn', { sessionId: 'mcp-1', role: 'robot', content: 'x' });
  expect(bad.isError).toBe(true);
  expect(bad.content[0]?.text).toMatch(/role/);
  const missing = await callTool(client, 'delete_memory', { id: memoryId });
  expect(missing.isError).toBe(true);
  expect(missing.content[0]?.text).toMatch(/^NOT_FOUND/);
  const extra = await callTool(client, 'list_sessions', { limit: 10, secret: 'x' });
  expect(extra.isError).toBe(true);
  expect((await callTool(client, 'list_sessions', {})).isError).toBeFalsy();
}
