/**
 * A command that only groups others (`rig disk`, `rig images`, `rig vm`): called alone it names
 * its commands in one line, as any bad input is said, instead of printing its whole help.
 */
import type { Command } from 'commander';
import { badInput } from '../errors.js';
import { runAction } from './run-action.js';

const GROUPS = new WeakSet<Command>();

/** Whether `command` only groups others: its action says so and runs nothing. */
export function isCommandGroup(command: Command): boolean {
  return GROUPS.has(command);
}

export function commandGroup(program: Command, name: string, description: string): Command {
  const group = program.command(name).description(description).allowExcessArguments().helpCommand(true);
  group.action(
    runAction(async () => {
      const names = group.commands.map((c) => c.name()).filter((n) => n !== 'help').join(', ');
      const [given] = group.args;
      throw badInput(given === undefined
        ? `${name} needs a command: ${names}; see rig ${name} --help`
        : `'${given}' is not a command of rig ${name}; use ${names} (rig ${name} --help)`);
    }),
  );
  GROUPS.add(group);
  return group;
}
