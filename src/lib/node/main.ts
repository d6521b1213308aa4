/**
 * Node-only. The entry point of the `engram` command: `npm run engram` runs it with tsx, the installed
 * command (package.json `bin` → dist/cli/engram.js) is its bundle (scripts/build-cli.mjs). cli.ts itself
 * only exports runCli, so a test or the bundle can import it without starting a command.
 */
import { processIo, runCli } from './cli';

runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
