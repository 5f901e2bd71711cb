/** Every `rig` subcommand, one module each. */
import type { Command } from 'commander';
import { register as disk } from './disk.js';
import { register as report } from './report.js';
import { register as images } from './images.js';
import { register as scan } from './scan.js';
import { register as merge } from './merge.js';

type Register = (program: Command) => void;

const commands: Register[] = [disk, report, images, scan, merge];

export function registerCommands(program: Command): void {
  for (const register of commands) register(program);
}
