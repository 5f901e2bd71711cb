/**
 * `rig cleanup [--dir D]`: removes what a killed run of the rig left behind (mounts, loop devices,
 * helpers, and whatever else the sweepers know), one line per thing removed.
 */
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { registeredDisks } from '../../../faults/disk-record.js';
import { contextFromEnv } from '../../context.js';
import { badInput, rigFailure } from '../../errors.js';
import { SWEEPERS, sweepLeftovers } from '../../cleanup/sweep-leftovers.js';
import { runAction } from '../run-action.js';

async function cleanup(opts: { dir?: string }): Promise<void> {
  const context = contextFromEnv();
  if (opts.dir !== undefined) checkDir(opts.dir, context.disk.registryDir);
  // --dir: that folder's disk only; servers, containers and guests belong to no work folder
  const sweepers = opts.dir === undefined ? SWEEPERS : SWEEPERS.filter((s) => s.name === 'disks');
  const out = await sweepLeftovers({ dir: opts.dir, context }, sweepers);
  for (const line of out.removed) process.stdout.write(`${line}\n`);
  for (const line of out.kept) process.stderr.write(`${line}\n`);
  if (out.problems.length) {
    throw rigFailure(`cleanup left problems: ${out.problems.join('; ')}`);
  }
  if (!out.removed.length) process.stdout.write('nothing to clean\n');
}

/** A mistyped --dir is named, not swept as "nothing to clean"; a folder removed under a disk the
 * rig recorded is still taken down by its record. */
function checkDir(dir: string, registryDir: string): void {
  // '' would sweep every disk, as no --dir does
  if (dir.trim() === '') throw badInput(`--dir is empty; name the work folder a disk was brought up in (rig disk up --dir), or leave --dir out to sweep everything the rig left`);
  const path = resolve(dir);
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) throw badInput(`--dir ${dir} is a file; name the work folder a disk was brought up in (rig disk up --dir)`);
    return;
  }
  if (!registeredDisks(registryDir).some((r) => r.dir === path)) {
    throw badInput(`--dir ${dir}: no such folder, and no disk the rig recorded was there; check the path (rig cleanup alone sweeps everything the rig left)`);
  }
}

export function register(program: Command): void {
  program
    .command('cleanup')
    .description('remove what a killed run left: servers, containers, the rig\'s dockerd, mounts, loop devices, helpers (only what the rig recorded)')
    .option('--dir <dir>', 'only this work folder; also takes down a disk left up by rig disk up')
    .action(runAction(cleanup));
}
