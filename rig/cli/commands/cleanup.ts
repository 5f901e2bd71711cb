/**
 * `rig cleanup [--dir D]`: removes what a killed run of the rig left behind (mounts, loop devices,
 * helpers, and whatever else the sweepers know), one line per thing removed.
 */
import type { Command } from 'commander';
import { contextFromEnv } from '../../context.js';
import { rigFailure } from '../../errors.js';
import { sweepLeftovers } from '../../cleanup/sweep-leftovers.js';
import { runAction } from '../run-action.js';

async function cleanup(opts: { dir?: string }): Promise<void> {
  const out = await sweepLeftovers({ dir: opts.dir, context: contextFromEnv() });
  for (const line of out.removed) process.stdout.write(`${line}\n`);
  for (const line of out.kept) process.stderr.write(`${line}\n`);
  if (out.problems.length) {
    throw rigFailure(`cleanup left problems: ${out.problems.join('; ')}`);
  }
  if (!out.removed.length) process.stdout.write('nothing to clean\n');
}

export function register(program: Command): void {
  program
    .command('cleanup')
    .description('remove what a killed run left: servers, containers, the rig\'s dockerd, mounts, loop devices, helpers (only what the rig recorded)')
    .option('--dir <dir>', 'only this work folder; also takes down a disk left up by rig disk up')
    .action(runAction(cleanup));
}
