/**
 * Node-only. `engram mcp`: Engram's memory as a Model Context Protocol server on stdin/stdout, for coding
 * assistants (issue 14; seed 000 "可选主动 RAG 工具": the model searches memory through a tool). It is an
 * extra door to the same engine the CLI opens — never the app's own path (ARCHITECTURE §10).
 *
 *   MCP client ──stdio──▶ McpServer (official SDK) ──tool input checked by the contract's own zod
 *                                                    schema──▶ engine.call(method, input)
 *
 * A refused input or an engine failure answers a tool error (`isError`, the engine's message naming the
 * field); the server never crashes on one. Stdout carries only the protocol.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { APP_VERSION } from '../engine/backup/app-info';
import type { Engine } from '../engine/engine';
import { contract, type Input, type Method } from '../engine/protocol/contract';

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** The contract's own input schema of a call, narrowed to the fields a tool offers. */
function inputOf<M extends Method>(method: M, fields: readonly string[]) {
  const schema = contract[method].input as unknown as z.ZodObject;
  return schema.pick(Object.fromEntries(fields.map((f) => [f, true])) as never) as z.ZodObject;
}

const text = (value: unknown) => JSON.stringify(value, null, 1);

async function run<M extends Method>(engine: Engine, method: M, input: Input<M>, shape: (data: never) => Record<string, unknown> = (d) => d): Promise<ToolResult> {
  const res = await engine.call(method, input);
  if (!res.ok) return { content: [{ type: 'text', text: `${res.error.code}: ${res.error.message}` }], isError: true };
  const data = shape(res.data as never);
  return { content: [{ type: 'text', text: text(data) }], structuredContent: data };
}

/** 002: the first turn of a conversation creates it (as `engram store` does). */
async function ensureConversation(engine: Engine, id: string): Promise<ToolResult | null> {
  const found = await engine.call('session.get', { id });
  if (found.ok) return null;
  if (found.error.code !== 'NOT_FOUND') return { content: [{ type: 'text', text: `${found.error.code}: ${found.error.message}` }], isError: true };
  const made = await engine.call('session.create', { id });
  if (made.ok || made.error.code === 'CONFLICT') return null;
  return { content: [{ type: 'text', text: `${made.error.code}: ${made.error.message}` }], isError: true };
}

export function createMcpServer(engine: Engine): McpServer {
  const server = new McpServer({ name: 'engram', version: APP_VERSION }, { capabilities: { tools: {} } });
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'search_conversations',
    {
      title: 'Search past conversations',
      description:
        'Finds the turns and rolling summaries of past conversations most relevant to a question (code symbols, words, times such as "last week"). Each result carries `explain`: the score term by term.',
      inputSchema: inputOf('recall.search', ['query', 'limit', 'currentSessionId', 'includeSummaries']),
      annotations: readOnly,
    },
    (input) => run(engine, 'recall.search', input as Input<'recall.search'>),
  );
  server.registerTool(
    'search_memories',
    {
      title: 'Search long-term memory',
      description:
        'The long-term memories (preferences, facts, patterns) most relevant to a query, ranked by keyword, category, recency, frequency and confidence; each item carries `score`, the ranking explained term by term.',
      inputSchema: inputOf('memory.retrieve', ['query', 'topN', 'projectId']),
      annotations: readOnly,
    },
    (input) => run(engine, 'memory.retrieve', { ...(input as Input<'memory.retrieve'>), purpose: 'api' }),
  );
  server.registerTool(
    'store_turn',
    {
      title: 'Store a conversation turn',
      description: 'Stores one user or assistant message in a conversation (created on first use), indexed for search at once.',
      inputSchema: inputOf('message.append', ['sessionId', 'role', 'content']),
    },
    async (input) => {
      const turn = input as Input<'message.append'>;
      const refused = await ensureConversation(engine, turn.sessionId);
      if (refused) return refused;
      const stored = await run(engine, 'message.append', turn, (d: { turnId: number; conversationId: string; symbolsExtracted: string[]; storedAt: number }) => ({
        turnId: d.turnId,
        conversationId: d.conversationId,
        symbolsExtracted: d.symbolsExtracted,
        storedAt: new Date(d.storedAt).toISOString(),
      }));
      // Like `engram store`: the conversation's due rolling summaries (there is no jobs worker here).
      if (!stored.isError) await engine.call('summary.roll', { sessionId: turn.sessionId });
      return stored;
    },
  );
  server.registerTool(
    'add_memory',
    { title: 'Add a long-term memory', description: 'Adds a memory the user states (a preference, fact or pattern).', inputSchema: contract['memory.create'].input },
    (input) => run(engine, 'memory.create', input as Input<'memory.create'>),
  );
  server.registerTool(
    'update_memory',
    {
      title: 'Update a long-term memory',
      description: 'Changes a memory (its history keeps the old version); `expectedVersion` refuses a stale edit.',
      inputSchema: contract['memory.update'].input,
    },
    (input) => run(engine, 'memory.update', input as Input<'memory.update'>),
  );
  server.registerTool(
    'delete_memory',
    { title: 'Delete a long-term memory', description: 'Deletes a memory permanently.', inputSchema: contract['memory.delete'].input, annotations: { destructiveHint: true } },
    (input) => run(engine, 'memory.delete', input as Input<'memory.delete'>),
  );
  server.registerTool(
    'get_profile',
    { title: 'Read the user profile', description: 'The user profile document (reply style, language habits, background) and its version.', inputSchema: contract['profile.get'].input, annotations: readOnly },
    () => run(engine, 'profile.get', {}),
  );
  server.registerTool(
    'list_sessions',
    {
      title: 'List conversations',
      description: 'Conversations, most recently active first, with title, snippet and turn count.',
      inputSchema: contract['session.list'].input,
      annotations: readOnly,
    },
    (input) => run(engine, 'session.list', input as Input<'session.list'>),
  );
  return server;
}

const FOLLOW_UP_EVERY_MS = 5_000;

/** Serves until the client closes stdin or the process is asked to stop; imported history is learned from meanwhile. */
export async function serveMcp(opts: { engine: Engine; stdin: Readable; stdout: Writable; stop: Promise<void> }): Promise<void> {
  const server = createMcpServer(opts.engine);
  const transport = new StdioServerTransport(opts.stdin, opts.stdout);
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    opts.stdin.once('end', () => done());
  });
  // An idle server finishes what an import left to learn (as the app's jobs worker would).
  const timer = setInterval(() => void opts.engine.call('import.followUp', { limit: 50 }), FOLLOW_UP_EVERY_MS);
  timer.unref();
  await server.connect(transport);
  await Promise.race([closed, opts.stop]);
  clearInterval(timer);
  await server.close();
}
