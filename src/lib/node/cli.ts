/**
 * Node-only. The Engram command line (seed 002's API contract; ARCHITECTURE §9):
 *
 *   npm run engram -- store --conversation c1 --role user --content "processPayment fails"
 *   npm run engram -- recall --query "processPayment 的问题" --limit 5
 *
 * Output: one line of JSON on stdout in 002's snake_case shapes. Errors: `{ "error": { "code",
 * "message" } }` on stderr, exit 2 for INVALID_ARGUMENT, 3 for NOT_FOUND, 1 for anything else.
 * The database is `<project-root>/.engram/conversation-memory.db` unless `--db` names another file.
 */
import { Writable, type Readable } from 'node:stream';
import { EngineError, type ErrorCode } from '../domain/errors';
import type { Logger, LogFields } from '../domain/log';
import { classifySqliteError } from '../engine/store/sqlite-errors';
import { parseCommand, type ParsedCommand } from './args';
import { exportCommand, importCommand } from './backup-commands';
import { helpFor } from './command-help';
import { foreignImportCommand } from './import-commands';
import { markdownExportCommand } from './markdown-commands';
import { serveMcp } from './mcp';
import { pretty, prettyError, progressBar } from './pretty';
import { APP_VERSION } from '../engine/backup/app-info';
import { cleanupCommand, initCommand, recallCommand, reindexCommand, storeCommand, summarizeCommand } from './commands';
import { openFileEngine, resolveDbPath, type FileEngine } from './open-file-db';
import { startRestServer, type RestServer } from './rest';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Read only by the commands that take input on stdin (store --stdin, import -). */
  stdin(): Readable;
  cwd: string;
  /** Resolves when the process is asked to stop (serve runs until then). */
  stopSignal(): Promise<void>;
  /** True when stderr is a terminal: long imports then show a progress bar there. */
  stderrIsTTY?: boolean;
}

const EXIT: Partial<Record<ErrorCode, number>> = { INVALID_ARGUMENT: 2, NOT_FOUND: 3 };
export const exitCodeFor = (code: ErrorCode): number => EXIT[code] ?? 1;

/** `--verbose`: the engine's log events (counts, ids, codes — never user text) as JSON lines on stderr. */
function stderrLogger(io: CliIo): Logger {
  const line = (level: string) => (event: string, fields?: LogFields) => io.stderr(`${JSON.stringify({ log: level, event, ...fields })}\n`);
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

async function serve({ db, port, io }: { db: FileEngine; port: number; io: CliIo }): Promise<null> {
  let server: RestServer;
  try {
    server = await startRestServer({ engine: db.engine, port });
  } catch (err) {
    if ((err as { code?: string }).code === 'EADDRINUSE')
      throw new EngineError('CONFLICT', 'Invalid `--port`: another program is listening on it. Choose another port.', { fields: ['--port'] });
    throw err;
  }
  io.stdout(`${JSON.stringify({ listening: server.url, db_path: db.dbPath })}\n`);
  await io.stopSignal();
  await server.close();
  return null;
}

/** Progress on stderr, only at a terminal (a script reading the JSON sees none); `null` ends the line. */
function progressTo(io: CliIo) {
  let shown = false;
  return (text: string | null) => {
    if (!io.stderrIsTTY) return;
    if (text === null) {
      if (shown) io.stderr('\n');
      shown = false;
      return;
    }
    const m = /^(.*?)(\d+)\/(\d+)$/.exec(text);
    io.stderr(m ? progressBar(m[1] as string, Number(m[2]), Number(m[3])) : `\r${text}\u001b[K`);
    shown = true;
  };
}

/** An MCP client speaks on stdin/stdout: the protocol gets the raw streams, nothing else writes to stdout. */
async function mcp(db: FileEngine, io: CliIo): Promise<null> {
  const stdout = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      io.stdout(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  await serveMcp({ engine: db.engine, stdin: io.stdin(), stdout, stop: io.stopSignal() });
  return null;
}

type RunCommand = Exclude<ParsedCommand, { name: 'help' } | { name: 'version' }>;

async function dispatch({ cmd, db, io }: { cmd: RunCommand; db: FileEngine; io: CliIo }): Promise<unknown> {
  const show = (line: string) => (cmd.args.pretty ? pretty(cmd.name, JSON.parse(line)) : line);
  const ctx = { db, print: (line: string) => io.stdout(`${show(line)}\n`), stdin: io.stdin };
  switch (cmd.name) {
    case 'init':
      return initCommand({ ...ctx, args: cmd.args });
    case 'store':
      // Prints a line per stored turn itself.
      await storeCommand({ ...ctx, args: cmd.args });
      return null;
    case 'recall':
      return recallCommand({ ...ctx, args: cmd.args });
    case 'summarize':
      return summarizeCommand({ ...ctx, args: cmd.args });
    case 'cleanup':
      return cleanupCommand({ ...ctx, args: cmd.args });
    case 'reindex':
      return reindexCommand({ ...ctx, args: cmd.args });
    case 'export':
      if (cmd.args.format === 'markdown') return markdownExportCommand({ db, args: cmd.args, write: (text) => io.stdout(text) });
      if (cmd.args.scope === 'memories')
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `--scope`: `memories` is a Markdown export (`--format markdown`).', { fields: ['--scope'] });
      return exportCommand({ db, args: cmd.args, write: (text) => io.stdout(text) });
    case 'import':
      if (cmd.args.from !== 'engram') return foreignImportCommand({ db, args: cmd.args, progress: progressTo(io) });
      return importCommand({ db, args: cmd.args, stdin: io.stdin });
    case 'mcp':
      return mcp(db, io);
    case 'serve':
      return serve({ db, port: cmd.args.port, io });
  }
}

function toEngineError(err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  const sqlite = classifySqliteError(err);
  if (sqlite) return sqlite;
  // Only the error's kind: its message may quote a path or a value.
  const kind = (err as { code?: string }).code ?? (err instanceof Error ? err.name : 'error');
  return new EngineError('INTERNAL', `Engram hit an unexpected error (${kind}). Your data is unchanged; please report it.`);
}

/** Runs one command; returns the process exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let db: FileEngine | null = null;
  // --pretty also shapes the error output, when the arguments could be read.
  let prettyOutput = argv.includes('--pretty');
  try {
    const cmd = parseCommand(argv);
    prettyOutput = cmd.args.pretty;
    if (cmd.name === 'version') {
      io.stdout(`${APP_VERSION}\n`);
      return 0;
    }
    if (cmd.name === 'help' || cmd.args.help) {
      io.stdout(helpFor(cmd.args.positionals[0]));
      return 0;
    }
    const dbPath = resolveDbPath({ db: cmd.args.db, projectRoot: cmd.args['project-root'], cwd: io.cwd });
    db = openFileEngine({
      dbPath,
      log: cmd.args.verbose ? stderrLogger(io) : undefined,
      command: cmd.name,
      // A write waits for another process's lock: say whose, while waiting (issue 13).
      onLockWait: (holders) => io.stderr(`${JSON.stringify({ waiting: { message: `Waiting for the database: ${holders} is writing to it.` } })}\n`),
    });
    const out = await dispatch({ cmd, db, io });
    if (out !== null) io.stdout(`${cmd.args.pretty ? pretty(cmd.name, out) : JSON.stringify(out)}\n`);
    return 0;
  } catch (err) {
    const e = toEngineError(err);
    const fields = e.details?.fields;
    if (prettyOutput) io.stderr(`${prettyError(e)}\n`);
    else io.stderr(`${JSON.stringify({ error: { code: e.code, message: e.message, ...(Array.isArray(fields) ? { fields } : {}) } })}\n`);
    return exitCodeFor(e.code);
  } finally {
    db?.close();
  }
}

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdin: () => process.stdin,
    cwd: process.cwd(),
    stopSignal: () => new Promise((done) => ['SIGINT', 'SIGTERM'].forEach((s) => process.once(s, () => done()))),
    stderrIsTTY: process.stderr.isTTY === true,
  };
}
