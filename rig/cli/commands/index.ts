/** Every `rig` subcommand, one module each. */
import type { Command } from 'commander';
import { register as disk } from './disk.js';

type Register = (program: Command) => void;

const commands: Register[] = [disk];

export function registerCommands(program: Command): void {
  for (const register of commands) register(program);
}
