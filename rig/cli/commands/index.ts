/** Every `rig` subcommand, one module each. */
import type { Command } from 'commander';

type Register = (program: Command) => void;

const commands: Register[] = [];

export function registerCommands(program: Command): void {
  for (const register of commands) register(program);
}
