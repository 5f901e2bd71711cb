/**
 * The `rig` program as commander sees it: every command registered (or the one `wanted` names),
 * ready to parse. rig/cli/main.ts parses the process's arguments with it; a test can parse a
 * command line with it and run nothing.
 */
import { Command } from 'commander';
import { COMMAND_NAMES, registerCommands } from './commands/index.js';
import { usageLine } from './usage-line.js';
import { isCommandGroup } from './command-group.js';
import { rigVersion } from '../version.js';

export async function createProgram(wanted?: string, next?: string): Promise<Command> {
  const program = new Command('rig')
    .description('Cuts power under a MySQL-family server and proves what its recovery restored.')
    .version(rigVersion())
    .configureOutput({ outputError: (str, write) => write(usageLine(str, helpFor(program, wanted, next))) })
    .exitOverride((err) => {
      // commander's own usage errors are bad input: exit 2, one line
      process.exit(err.exitCode === 0 ? 0 : 2);
    });
  await registerCommands(program, wanted);
  // a group takes any arguments, to name a mistyped command; commander copies that to the
  // commands added to it, which take only what they name
  for (const group of program.commands.filter(isCommandGroup)) for (const command of group.commands) command.allowExcessArguments(false);
  return program;
}

/** The command whose help a usage error points to: `disk up` for `rig disk up` missing its --dir,
 * `disk` for a group's mistyped command, none for an unknown command. */
function helpFor(program: Command, wanted: string | undefined, next: string | undefined): string | undefined {
  if (wanted === undefined || !COMMAND_NAMES.includes(wanted)) return undefined;
  const group = program.commands.find((c) => c.name() === wanted);
  return group && isCommandGroup(group) && group.commands.some((c) => c.name() === next) ? `${wanted} ${next}` : wanted;
}
