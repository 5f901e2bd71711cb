/** Every `rig` subcommand, one module each. */
import type { Command } from 'commander';
import { register as disk } from './disk.js';
import { register as report } from './report.js';
import { register as images } from './images.js';
import { register as scan } from './scan.js';
import { register as merge } from './merge.js';
import { register as cleanup } from './cleanup.js';
import { register as cycle } from './cycle.js';
import { register as repro } from './repro.js';
import { register as campaign } from './campaign.js';
import { register as explore } from './explore.js';
import { register as perf } from './perf.js';
import { register as vm } from './vm.js';
import { register as shrink } from './shrink.js';
import { register as bundle } from './bundle.js';

type Register = (program: Command) => void;

const commands: Register[] = [disk, report, images, scan, merge, cleanup, cycle, repro, shrink, bundle, campaign, explore, perf, vm];

export function registerCommands(program: Command): void {
  for (const register of commands) register(program);
}
