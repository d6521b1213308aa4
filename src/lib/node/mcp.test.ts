/**
 * `engram mcp` (issue 14) as an MCP client meets it: the official SDK client over stdio, a child
 * process on a temporary database — every tool called, bad inputs answered as tool errors.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcp, exerciseEngramTools } from './mcp-client';
import { openFileEngine } from './open-file-db';
import { CLI_PATH, tempProject } from './testing';

describe('engram mcp over stdio (official SDK client)', () => {
  const project = tempProject();
  afterAll(() => project.remove());

  it('lists the tools, calls each, refuses bad input as a tool error, and keeps serving', async () => {
    const db = join(project.dir, 'mcp.db');
    const client = await connectMcp(process.execPath, ['--import', 'tsx', CLI_PATH, 'mcp', '--db', db]);
    try {
      await exerciseEngramTools(client);
    } finally {
      await client.close();
    }
    // What the tools wrote is in the file the CLI opens.
    const file = openFileEngine({ dbPath: db });
    try {
      const s = await file.engine.call('session.get', { id: 'mcp-1' });
      expect(s.ok && s.data.turnCount).toBe(1);
    } finally {
      file.close();
    }
  }, 60_000);
});
