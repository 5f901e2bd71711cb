/**
 * The `rig` program as commander sees it: every command registered (or the one `wanted` names),
 * ready to parse. rig/cli/main.ts parses the process's arguments with it; a test can parse a
 * command line with it and run nothing.
 */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { COMMAND_NAMES, registerCommands } from './commands/index.js';
import { usageLine } from './usage-line.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export async function createProgram(wanted?: string): Promise<Command> {
  const program = new Command('rig')
    .description('Cuts power under a MySQL-family server and proves what its recovery restored.')
    .version(pkg.version)
    .configureOutput({ outputError: (str, write) => write(usageLine(str, wanted !== undefined && COMMAND_NAMES.includes(wanted) ? wanted : undefined)) })
    .exitOverride((err) => {
      // commander's own usage errors are bad input: exit 2, one line
      process.exit(err.exitCode === 0 ? 0 : 2);
    });
  await registerCommands(program, wanted);
  return program;
}
