/**
 * Node-only. `engram <command> --help` (and `engram help <command>`): what the command does, its
 * options and an example. The options every command takes are listed once, in USAGE.
 */
import type { CommandName } from './args';
import { USAGE } from './usage';

const COMMON = `
Options of every command: --project-root <dir>, --db <path>, --pretty, --verbose (engram --help).
Exit codes: 0 done, 2 invalid argument, 3 not found, 1 anything else.
`;

const HELP: Record<CommandName, string> = {
  init: `engram init
  Creates the database (or upgrades it to this version's schema) and prints where it is.
  Example: engram init --project-root ~/code/shop
`,
  store: `engram store --conversation <id> --role user|assistant --content <text>
engram store --conversation <id> --stdin
  Stores one turn (seed 002 memory_store); the conversation is created on first use.
  --conversation <id>   the conversation (1–100 characters)
  --role, --content     one turn from the options
  --stdin               one turn per JSON line {"role","content"} read from stdin instead
  Example: engram store --conversation shop --role user --content "processPayment fails"
`,
  recall: `engram recall --query <text> [--limit N] [--conversation <id>]
  The turns and summaries most relevant to the query (seed 002 memory_recall), best first.
  --query <text>        what to look for (words, code symbols, "last week" …)
  --limit N             at most N results (default 5, 1–50)
  --conversation <id>   the conversation asking (its recent turns count as context)
  Example: engram recall --query "processPayment 的问题" --limit 5 --pretty
`,
  summarize: `engram summarize --conversation <id> --from-turn A --to-turn B
  Summarises turns A to B of a conversation now (seed 002 memory_summarize).
`,
  cleanup: `engram cleanup --older-than 30d | --conversation <id> | --all --yes
  Deletes old or chosen conversations (seed 002 memory_cleanup); --all needs --yes.
`,
  export: `engram export [--out <file>] [--scope all|project:<id>|conversation:<id>]
engram export --format markdown --scope conversation:<id>|project:<id>|memories [--out <file>] [--locale en|zh-CN]
  JSON (default): the app's backup format, to --out or stdout; import it in the app or with engram import.
  Markdown: a conversation, a project's whole memory, or all long-term memory with the profile, for reading.
  Example: engram export --format markdown --scope conversation:shop --out shop.md
`,
  import: `engram import <file|-> [--mode merge|replace] [--yes]
engram import --from chatgpt|claude|sillytavern|lorebook|logs <file|folder> [--dry-run]
  An Engram backup (default): merge adds what is new; replace deletes what the file covers first (needs --yes).
  --from chatgpt       ChatGPT data export's conversations.json (the branch you last saw; titles and times kept)
  --from claude        Claude data export's conversations.json
  --from sillytavern   SillyTavern chat files (.jsonl), one file or a folder of them
  --from lorebook      SillyTavern World Info or a character card (.json) → a writing project's setting files
                       --project <id> an existing project, or --project-name <name> (default: the book's name)
  --from logs          a folder of plain conversation logs (seed 002 memory_import --from-logs):
                       "user: …" / "assistant: …" lines, Engram's Markdown export, or .jsonl {"role","content"}
  --dry-run            only say what would be added
  Importing again adds only what is new. Afterwards memories and rolling summaries are made from what
  was imported (progress on stderr when it is a terminal).
  Example: engram import --from chatgpt ~/Downloads/chatgpt-export/conversations.json --pretty
`,
  reindex: `engram reindex
  Rebuilds the full-text index with this version's word segmenter (seed 002 memory_reindex).
`,
  serve: `engram serve [--port N]
  Seed 001's REST API (/memory/long-term, /memory/working/{session_id}) on 127.0.0.1 (default port 7411),
  until Ctrl-C. It refuses browsers (an Origin header) and other hosts.
`,
  mcp: `engram mcp
  A Model Context Protocol server on stdin/stdout for coding assistants (Claude Code, Cursor, …): tools to
  search conversations and memories (with the ranking explained), store a turn, add / update / delete a
  memory, read the profile and list conversations, on the database chosen as for every command.
  Example client configuration: see the README ("MCP server").
`,
  help: `engram help [command]
  This help, or a command's.
`,
  version: `engram --version
  Prints the version.
`,
};

export function helpFor(topic: string | undefined): string {
  if (topic && Object.hasOwn(HELP, topic)) return `${HELP[topic as CommandName]}${COMMON}`;
  return USAGE;
}
