/**
 * Node-only test support: the CLI as a child process (exactly as `npm run engram` runs it), a
 * temporary project folder, and the CLI in-process for the many small argument cases.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli } from './cli';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The command's entry point (`npm run engram` runs it with tsx; the installed command is its bundle). */
export const CLI_PATH = join(REPO_ROOT, 'src/lib/node/main.ts');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The parsed single JSON line of stdout (or stderr for failures). */
export const jsonOf = (text: string): Record<string, unknown> => JSON.parse(text.trim()) as Record<string, unknown>;

export function spawnCli(args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', CLI_PATH, ...args], { cwd: REPO_ROOT, env: { ...process.env, NODE_NO_WARNINGS: '1' } });
}

export function runCliProcess(args: readonly string[], opts: { input?: string } = {}): Promise<CliResult> {
  const child = spawnCli(args);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(opts.input ?? '');
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** The same CLI, in this process (no spawn): for argument and error cases. */
export async function runCliInProcess(args: readonly string[], opts: { cwd: string; input?: string }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stdin: () => Readable.from([opts.input ?? '']),
    cwd: opts.cwd,
    stopSignal: () => Promise.resolve(),
  });
  return { code, stdout, stderr };
}

export function tempProject(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'engram-node-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
