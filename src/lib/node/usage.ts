/** Node-only. `engram --help`; each command's own help is in command-help.ts. */
export const USAGE = `Engram — long-term memory for AI conversations, on this machine (seed 002 contract).

Usage: engram <command> [options]          (installed: npm install -g <engram tarball>)
       npm run engram -- <command> [options]   (in the repository)

Commands
  init                                   create or upgrade the database
  store --conversation <id> --role <user|assistant> --content <text>
                                         store a turn (the conversation is created on first use)
  store --conversation <id> --stdin      store one turn per JSON line {"role","content"} read from stdin
  recall --query <text> [--limit N] [--conversation <id>]
  summarize --conversation <id> --from-turn A --to-turn B
  cleanup --older-than 30d | --conversation <id> | --all --yes
  export [--out <file>] [--scope all|project:<id>|conversation:<id>]   (stdout without --out)
  export --format markdown --scope conversation:<id>|project:<id>|memories [--locale en|zh-CN]
  import <file|-> [--mode merge|replace] [--yes]                      (replace needs --yes)
  import --from chatgpt|claude|sillytavern|lorebook|logs <file|folder> [--dry-run]
                                         bring history from another app (see engram import --help)
  reindex                                rebuild the full-text index
  serve [--port N]                       REST API on 127.0.0.1 (seed 001 /memory/... endpoints)
  mcp                                    Model Context Protocol server on stdin/stdout (for coding assistants)
  help <command>                         that command's options (also: engram <command> --help)

Options for every command
  --project-root <dir>   database at <dir>/.engram/conversation-memory.db (default: the working directory)
  --db <path>            use this database file instead
  --pretty               human-readable output instead of JSON (same exit codes)
  --verbose              log engine events (never your text) to stderr
  --version              print the version

Output is one line of JSON on stdout; errors are {"error":{"code","message"}} on stderr with
exit code 2 (invalid argument), 3 (not found) or 1 (anything else).
`;
