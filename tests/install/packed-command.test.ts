/**
 * Issue 14 "done when": a fresh checkout can `npm pack`, install the tarball globally into a temporary
 * prefix, and from there run `engram` as a person would — store / recall, an import from ChatGPT in a
 * shell, and `engram mcp` under an MCP client (the official SDK's, over stdio).
 *
 * Offline but for the npm registry: the tarball's one runtime dependency, better-sqlite3, comes from the
 * npm cache and is compiled from source here (prebuilt binaries are downloaded from elsewhere, so the test
 * asks for the source build directly instead of waiting for that download to fail). npm 11 runs a
 * dependency's install script only when allowed: `--allow-scripts=better-sqlite3`, as the README says.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_FIXTURES } from '../../src/lib/domain/imports/testing';
import { APP_VERSION } from '../../src/lib/engine/backup/app-info';
import { connectMcp, exerciseEngramTools } from '../../src/lib/node/mcp-client';
import { REPO_ROOT } from '../../src/lib/node/testing';

const run = promisify(execFile);
const MINUTES = 60_000;

describe('the packed engram command, installed into a temporary prefix', () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-pack-'));
  const prefix = join(root, 'prefix');
  const bin = join(prefix, 'bin');
  const work = join(root, 'work');
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NODE_NO_WARNINGS: '1' };
  const engram = (args: string[], cwd = work) => run(join(bin, 'engram'), args, { cwd, env });

  beforeAll(async () => {
    mkdirSync(work);
    await run('npm', ['pack', '--pack-destination', root, '--silent'], { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    const tarball = readdirSync(root).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe(`engram-${APP_VERSION}.tgz`);
    await run(
      'npm',
      ['install', '-g', join(root, tarball as string), '--prefix', prefix, '--allow-scripts=better-sqlite3', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: root, env: { ...env, npm_config_build_from_source: 'true' }, maxBuffer: 64 * 1024 * 1024 },
    );
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('runs with nothing but Node: --version, store, recall (seed 002 shapes, exit codes)', async () => {
    expect((await engram(['--version'])).stdout).toBe(`${APP_VERSION}\n`);
    const stored = JSON.parse((await engram(['store', '--conversation', 'conv-1', '--role', 'user', '--content', 'processPayment 在 src/payment.ts 里有并发问题'])).stdout);
    expect(stored).toMatchObject({ turn_id: 1, conversation_id: 'conv-1', symbols_extracted: expect.arrayContaining(['processPayment']) });
    const recalled = JSON.parse((await engram(['recall', '--query', 'processPayment 的问题', '--limit', '5'])).stdout);
    expect(recalled.results[0]).toMatchObject({ conversation_id: 'conv-1', role: 'user', is_summary: false });
    const refused = await engram(['recall', '--query', 'x', '--limit', 'many']).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 2 });
  });

  it('imports a ChatGPT export from a shell, and a second time adds nothing', async () => {
    const shell = (cmd: string) => run('/bin/sh', ['-c', cmd], { cwd: join(IMPORT_FIXTURES, 'chatgpt'), env });
    const db = join(work, 'import.db');
    const first = JSON.parse((await shell(`engram import --from chatgpt conversations.json --db '${db}'`)).stdout);
    expect(first).toMatchObject({ written: { conversations: 2, messages: 6 } });
    const again = JSON.parse((await shell(`engram import --from chatgpt conversations.json --db '${db}'`)).stdout);
    expect(again).toMatchObject({ written: { conversations: 0, messages: 0 }, conversations: { unchanged: 2 } });
    const found = JSON.parse((await engram(['recall', '--query', 'marmalade jar', '--db', db])).stdout);
    expect(found.results[0].conversation_id).toBe('chatgpt-6789a1b2-0000-4000-8000-00000000c0de');
  });

  it('serves MCP to the SDK client over stdio', async () => {
    const client = await connectMcp(join(bin, 'engram'), ['mcp', '--db', join(work, 'mcp.db')], { PATH: env.PATH });
    try {
      await exerciseEngramTools(client);
    } finally {
      await client.close();
    }
  }, 2 * MINUTES);
});
