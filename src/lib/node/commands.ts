/**
 * Node-only. Seed 002's commands on the engine: init, store, recall, summarize, cleanup, reindex. Each
 * returns the seed's snake_case JSON (shapes.ts); the CLI prints it. Working memory lives in this
 * process only (ARCHITECTURE §10): a later process rebuilds it from the stored turns when asked.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { EngineError } from '../domain/errors';
import { invalidArgument } from '../domain/validation';
import { contract } from '../engine/protocol/contract';
import { storedSegmenterVersion } from '../engine/store/fts-reindex';
import type { CommandArgs } from './args';
import { callerFor, renameFields } from './engine-call';
import type { FileEngine } from './open-file-db';
import { cleanupShape, recallShape, reindexShape, storeShape, summarizeShape } from './shapes';

export interface CommandContext<C extends keyof CommandMap = keyof CommandMap> {
  db: FileEngine;
  args: CommandMap[C];
  /** Writes one line of output (stdout). */
  print(line: string): void;
  stdin(): Readable;
}

interface CommandMap {
  init: CommandArgs<'init'>;
  store: CommandArgs<'store'>;
  recall: CommandArgs<'recall'>;
  summarize: CommandArgs<'summarize'>;
  cleanup: CommandArgs<'cleanup'>;
  reindex: CommandArgs<'reindex'>;
}

const STORE_NAMES = { sessionId: '--conversation', id: '--conversation', role: '--role', content: '--content' };

export async function initCommand({ db }: CommandContext<'init'>) {
  const status = await callerFor(db.engine)('system.status', {});
  return {
    db_path: db.dbPath,
    created: db.created,
    schema_version: status.schemaVersion,
    sqlite_version: status.sqliteVersion,
    journal_mode: db.journalMode,
    segmenter_version: storedSegmenterVersion(db.driver),
  };
}

/** 002: `--conversation <id>` names the conversation; the first turn creates it. */
async function ensureConversation(db: FileEngine, id: string): Promise<void> {
  const found = await db.engine.call('session.get', { id });
  if (found.ok) return;
  if (found.error.code !== 'NOT_FOUND') throw renameFields(found.error, STORE_NAMES);
  const made = await db.engine.call('session.create', { id });
  // CONFLICT: another process created it between our read and our write — exactly what we wanted.
  if (!made.ok && made.error.code !== 'CONFLICT') throw renameFields(made.error, STORE_NAMES);
}

const stdinTurn = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string().min(1) });

/**
 * A turn is checked against the engine's own rules before anything is written, so a refused turn
 * leaves nothing behind — not even the conversation it would have opened — and the error names what
 * the person gave (`--content`, or `stdin line 3.content`).
 */
function checkTurn(sessionId: string, role: 'user' | 'assistant', content: string, names: Record<string, string>): void {
  const res = contract['message.append'].input.safeParse({ sessionId, role, content });
  if (!res.success) throw renameFields(toIpc(invalidArgument(res.error)), names);
}

const toIpc = (e: EngineError) => ({ code: e.code, message: e.message, details: e.details });

/**
 * 002 memory_store. One turn from `--role`/`--content`, or (`--stdin`) one turn per JSON line
 * `{"role":…,"content":…}`, each stored as it arrives. Prints one 002 result line per stored turn.
 * The conversation is created with its first stored turn. The CLI has no jobs worker: once the turns
 * are stored it makes the conversation's due rolling summaries itself (REQ-LTM-002), as the app's
 * periodic pass would.
 */
export async function storeCommand({ db, args, print, stdin }: CommandContext<'store'>): Promise<void> {
  let opened = false;
  const store = async (role: 'user' | 'assistant', content: string, names: Record<string, string>) => {
    if (!opened) {
      await ensureConversation(db, args.conversation);
      opened = true;
    }
    const r = await callerFor(db.engine, names)('message.append', { sessionId: args.conversation, role, content });
    print(JSON.stringify(storeShape(r)));
  };
  if (args.stdin) {
    if (args.role !== undefined || args.content !== undefined)
      throw new EngineError('INVALID_ARGUMENT', 'Invalid `--stdin`: give the turns on stdin or with `--role`/`--content`, not both.', { fields: ['--stdin'] });
    let n = 0;
    for await (const line of createInterface({ input: stdin(), crlfDelay: Infinity })) {
      n++;
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new EngineError('INVALID_ARGUMENT', `Invalid \`stdin line ${n}\`: expected a JSON object {"role","content"}`, { fields: [`stdin line ${n}`] });
      }
      const turn = stdinTurn.safeParse(value);
      if (!turn.success) throw invalidArgument(turn.error, `stdin line ${n}`);
      const names = { ...STORE_NAMES, role: `stdin line ${n}.role`, content: `stdin line ${n}.content` };
      checkTurn(args.conversation, turn.data.role, turn.data.content, names);
      await store(turn.data.role, turn.data.content, names);
    }
    if (opened) await callerFor(db.engine, STORE_NAMES)('summary.roll', { sessionId: args.conversation });
    return;
  }
  for (const [name, value] of [['--role', args.role], ['--content', args.content]] as const)
    if (value === undefined) throw new EngineError('INVALID_ARGUMENT', `Missing \`${name}\`: \`store\` needs it (or \`--stdin\`).`, { fields: [name] });
  checkTurn(args.conversation, args.role as 'user' | 'assistant', args.content as string, STORE_NAMES);
  await store(args.role as 'user' | 'assistant', args.content as string, STORE_NAMES);
  await callerFor(db.engine, STORE_NAMES)('summary.roll', { sessionId: args.conversation });
}

/** 002 memory_recall */
export async function recallCommand({ db, args }: CommandContext<'recall'>) {
  const call = callerFor(db.engine, { query: '--query', limit: '--limit', currentSessionId: '--conversation' });
  const r = await call('recall.search', { query: args.query, limit: args.limit, currentSessionId: args.conversation });
  return recallShape(r);
}

/** 002 memory_summarize */
export async function summarizeCommand({ db, args }: CommandContext<'summarize'>) {
  const call = callerFor(db.engine, { id: '--conversation', sessionId: '--conversation', fromTurn: '--from-turn', toTurn: '--to-turn' });
  const r = await call('summary.create', { sessionId: args.conversation, fromTurn: args['from-turn'], toTurn: args['to-turn'] });
  return summarizeShape(r);
}

/** 002 memory_cleanup: exactly one of --older-than, --conversation, --all (which needs --yes). */
export async function cleanupCommand({ db, args }: CommandContext<'cleanup'>) {
  const chosen = [args['older-than'] !== undefined, args.conversation !== undefined, args.all].filter(Boolean).length;
  if (chosen !== 1)
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `cleanup`: give exactly one of `--older-than`, `--conversation`, `--all`.', {
      fields: ['--older-than', '--conversation', '--all'],
    });
  const mode =
    args['older-than'] !== undefined
      ? { olderThanDays: args['older-than'] }
      : args.conversation !== undefined
        ? { sessionId: args.conversation }
        : { all: true as const, confirm: args.yes };
  const call = callerFor(db.engine, { olderThanDays: '--older-than', sessionId: '--conversation', 'confirm: true': '--yes', confirm: '--yes' });
  const r = await call('cleanup.run', mode);
  return cleanupShape(r);
}

/** 002 memory_reindex */
export async function reindexCommand({ db }: CommandContext<'reindex'>) {
  return reindexShape(await callerFor(db.engine)('maintenance.reindex', {}));
}
