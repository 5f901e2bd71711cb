/**
 * Builds a power-fail disk on the backend its options name: the FUSE helper's (faults/power-fail-disk.ts)
 * or the kernel's dm-log-writes and dm-flakey (faults/dm/dm-disk.ts, loaded only when asked for).
 */
import { resolve } from 'node:path';
import { diskEnvironmentFromEnv } from './disk-environment.js';
import { startFuseDisk, type DiskOptions, type PowerFailDisk } from './power-fail-disk.js';

export async function startDisk(opts: DiskOptions): Promise<PowerFailDisk> {
  if (opts.backend !== 'dm') return startFuseDisk(opts);
  const { startDmDisk } = await import('./dm/dm-disk.js');
  return startDmDisk(opts, resolve(opts.dir), opts.environment ?? diskEnvironmentFromEnv());
}
