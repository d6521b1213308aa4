/**
 * Node-only. The CLI's argument grammar (seed 002's commands), parsed with `node:util` parseArgs and
 * checked with zod, so a bad value is INVALID_ARGUMENT naming the option (`--limit`), never echoing it.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { EngineError } from '../domain/errors';
import { invalidArgument } from '../domain/validation';
import { IMPORT_SOURCES } from '../domain/imports/types';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Every command accepts these: where the database is, and diagnostics on stderr. */
const GLOBAL: Options = {
  db: { type: 'string' },
  'project-root': { type: 'string' },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  pretty: { type: 'boolean', default: false },
};

const globalSchema = {
  db: z.string().min(1).optional(),
  'project-root': z.string().min(1).optional(),
  verbose: z.boolean(),
  help: z.boolean(),
  /** Human-readable output instead of JSON (issue 14); the exit codes stay the same. */
  pretty: z.boolean(),
};
const idOption = z.string().min(1).max(100);
// Refinements (not regexes): their messages are ours and reach the user as written.
const intOption = z
  .string()
  .refine((s) => /^-?\d{1,15}$/.test(s), 'expected an integer')
  .transform(Number);
/** `30d` (002's form) or a bare number of days. */
const days = z
  .string()
  .refine((s) => /^\d{1,6}d?$/.test(s), 'expected a number of days such as `30d`')
  .transform((s) => Number.parseInt(s, 10))
  .pipe(z.number().min(1).max(36_500));
const scope = z
  .string()
  .refine((s) => /^(all|memories|(project|conversation|session):.{1,100})$/.test(s), 'expected `all`, `project:<id>` or `conversation:<id>` (or `memories` with `--format markdown`)');

function command<S extends z.ZodRawShape>(opts: { options: Options; shape: S; positionals?: number }) {
  return { options: { ...GLOBAL, ...opts.options }, schema: z.strictObject({ ...globalSchema, ...opts.shape }), positionals: opts.positionals ?? 0 };
}

export const COMMANDS = {
  init: command({ options: {}, shape: {} }),
  store: command({
    options: { conversation: { type: 'string' }, role: { type: 'string' }, content: { type: 'string' }, stdin: { type: 'boolean', default: false } },
    shape: { conversation: idOption, role: z.enum(['user', 'assistant']).optional(), content: z.string().min(1).optional(), stdin: z.boolean() },
  }),
  recall: command({
    options: { query: { type: 'string' }, limit: { type: 'string' }, conversation: { type: 'string' } },
    shape: { query: z.string().min(1), limit: intOption.default(5), conversation: idOption.optional() },
  }),
  summarize: command({
    options: { conversation: { type: 'string' }, 'from-turn': { type: 'string' }, 'to-turn': { type: 'string' } },
    shape: { conversation: idOption, 'from-turn': intOption, 'to-turn': intOption },
  }),
  cleanup: command({
    options: { 'older-than': { type: 'string' }, conversation: { type: 'string' }, all: { type: 'boolean', default: false }, yes: { type: 'boolean', default: false } },
    shape: { 'older-than': days.optional(), conversation: idOption.optional(), all: z.boolean(), yes: z.boolean() },
  }),
  export: command({
    options: { out: { type: 'string' }, scope: { type: 'string' }, format: { type: 'string' }, locale: { type: 'string' } },
    shape: {
      out: z.string().min(1).optional(),
      scope: scope.default('all'),
      format: z.enum(['json', 'markdown']).default('json'),
      locale: z.enum(['en', 'zh-CN']).default('en'),
    },
  }),
  import: command({
    options: {
      mode: { type: 'string' },
      yes: { type: 'boolean', default: false },
      // issue 14: imports from other apps
      from: { type: 'string' },
      project: { type: 'string' },
      'project-name': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
    shape: {
      mode: z.enum(['merge', 'replace']).default('merge'),
      yes: z.boolean(),
      from: z.enum(['engram', ...IMPORT_SOURCES]).default('engram'),
      project: idOption.optional(),
      'project-name': z.string().trim().min(1).max(200).optional(),
      'dry-run': z.boolean(),
    },
    positionals: 1,
  }),
  reindex: command({ options: {}, shape: {} }),
  serve: command({ options: { port: { type: 'string' } }, shape: { port: intOption.pipe(z.number().min(0).max(65_535)).default(7411) } }),
  help: command({ options: {}, shape: {}, positionals: 1 }),
  // issue 14: the MCP server on stdio, and the version
  mcp: command({ options: {}, shape: {} }),
  version: command({ options: {}, shape: {} }),
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandArgs<C extends CommandName> = z.output<(typeof COMMANDS)[C]['schema']> & { positionals: string[] };
export type ParsedCommand = { [C in CommandName]: { name: C; args: CommandArgs<C> } }[CommandName];

const bad = (message: string, field: string) => new EngineError('INVALID_ARGUMENT', message, { fields: [field] });
/** Option names are ours; anything else the user typed is not repeated back. */
const isOption = (s: string | undefined): s is string => s !== undefined && /^--?[a-z][a-z-]{0,30}$/.test(s);
const safeName = (s: string | undefined) => (isOption(s) ? `\`${s}\`` : 'an option');
const safeField = (s: string | undefined) => (isOption(s) ? s : 'option');

/** Turns a zod failure on the option object into INVALID_ARGUMENT whose message names `--option`. */
function optionError(error: z.ZodError): EngineError {
  const e = invalidArgument(error);
  const fields = ((e.details?.fields as string[] | undefined) ?? []).map((f) => `--${f}`);
  const message = e.message.replace(/^Invalid `([^`]+)`/, 'Invalid `--$1`').replace(/unknown fields? /, 'unknown option ');
  return new EngineError('INVALID_ARGUMENT', message, { fields });
}

/**
 * `--limit -5`: node's parseArgs takes `-5` for an option and calls the value missing. A negative
 * number after an option that takes a value is its value (`--limit=-5`), so the person hears what is
 * wrong with it ("must be at least 1") rather than that `--limit` is a flag.
 */
function joinNegativeNumbers(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const option = /^--([a-z][a-z-]*)$/.exec(arg)?.[1];
    if (option && Object.hasOwn(options, option) && options[option]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export function parseCommand(argv: readonly string[]): ParsedCommand {
  const [name, ...rest] = argv;
  if (!name || name.startsWith('-')) {
    if (name === '--help' || name === '-h') return { name: 'help', args: { verbose: false, help: true, pretty: false, positionals: [] } };
    if (name === '--version' || name === '-V') return { name: 'version', args: { verbose: false, help: false, pretty: false, positionals: [] } };
    throw bad(`Missing command: expected one of ${Object.keys(COMMANDS).join(', ')}.`, 'command');
  }
  if (!Object.hasOwn(COMMANDS, name)) throw bad(`Unknown command: expected one of ${Object.keys(COMMANDS).join(', ')}.`, 'command');
  const spec = COMMANDS[name as CommandName];
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: joinNegativeNumbers(rest, spec.options), options: spec.options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (err) {
    const code = (err as { code?: string }).code;
    const option = /'(-[^']*)'/.exec(err instanceof Error ? err.message : '')?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw bad(`Invalid option: ${safeName(option)} is not an option of \`${name}\`.`, safeField(option));
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const flag = option?.split(' ')[0];
      const text = err instanceof Error ? err.message : '';
      const why = /argument missing/.test(text)
        ? 'it needs a value'
        : /ambiguous/.test(text)
          ? `its value starts with "-"; write it as \`${flag}=<value>\``
          : 'it is a flag and takes no value';
      throw bad(`Invalid ${safeName(flag)}: ${why}.`, safeField(flag));
    }
    throw bad(`Invalid arguments for \`${name}\`.`, 'arguments');
  }
  if (parsed.positionals.length > spec.positionals)
    throw bad(`Invalid arguments: \`${name}\` takes ${spec.positionals || 'no'} positional argument${spec.positionals === 1 ? '' : 's'}.`, 'arguments');
  // `<command> --help` is that command's help, whatever else is (still) missing.
  if (parsed.values.help === true) return { name: 'help', args: { verbose: false, help: true, pretty: false, positionals: [name] } };
  const res = spec.schema.safeParse(parsed.values);
  if (!res.success) throw optionError(res.error);
  return { name, args: { ...res.data, positionals: parsed.positionals } } as ParsedCommand;
}
