/**
 * What an earlier, killed run of the rig may have left on the machine, and the sweepers that take
 * it away. `rig cleanup`, the test suite and every campaign call sweepLeftovers() before they start,
 * so one crash of the rig never fails the next run.
 *
 * Each kind of leftover has one sweeper. It acts only on what the rig recorded creating, and only
 * after checking the thing is still the rig's own and that the rig process that made it is gone.
 * Order matters: whatever holds files open on a disk (a host server, a container, the engine that
 * runs it) goes before `disks`, since a disk cannot be detached while a process still uses its
 * filesystem.
 */
import { sweepDisks, type SweepOutcome, type SweepScope } from '../../faults/sweep-disks.js';
import type { RigContext } from '../context.js';
import { sweepDocker } from './sweep-docker.js';
import { sweepGuests } from './sweep-guests.js';
import { sweepServers } from './sweep-servers.js';

export type { SweepOutcome };

export interface CleanupScope extends SweepScope {
  context: RigContext;
}

export interface Sweeper {
  name: string;
  sweep(scope: CleanupScope): Promise<SweepOutcome>;
}

export const SWEEPERS: Sweeper[] = [
  { name: 'docker', sweep: (scope) => sweepDocker({ ...scope, workDir: scope.context.workDir, engineAddress: scope.context.dockerHost ?? undefined }) },
  { name: 'servers', sweep: sweepServers },
  { name: 'guests', sweep: (scope) => sweepGuests(scope.context.workDir) },
  { name: 'disks', sweep: (scope) => sweepDisks({ dir: scope.dir, registryDir: scope.context.disk.registryDir }) },
];

export async function sweepLeftovers(scope: CleanupScope, sweepers = SWEEPERS): Promise<SweepOutcome> {
  const all: SweepOutcome = { removed: [], kept: [], problems: [] };
  for (const sweeper of sweepers) {
    try {
      const out = await sweeper.sweep(scope);
      all.removed.push(...out.removed);
      all.kept.push(...out.kept);
      all.problems.push(...out.problems);
    } catch (error) {
      all.problems.push(`${sweeper.name}: ${(error as Error).message}`);
    }
  }
  return all;
}
