/**
 * The disk's own settings from the machine: where its native helper is, where live disks are
 * registered (so a sweep finds a killed run's disk), and the FUSE device. A program reads them once
 * where it starts (diskEnvironmentFromEnv) and hands them to the disk in DiskOptions and sweep
 * scopes; the disk reads the environment itself only when its caller gave none.
 *   RIG_HELPER        the helper binary (default: faults/helper/pfdisk of this checkout)
 *   RIG_REGISTRY_DIR  the registry of live disks (default: /run/powercut-rig/disks, a tmpfs like
 *                     the mounts and loop devices it speaks of)
 *   RIG_DEV_FUSE      the FUSE device (default: /dev/fuse)
 *   RIG_DM_CONTROL    device-mapper's control node, for the dm backend (default: /dev/mapper/control)
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DiskEnvironment {
  helperPath: string;
  registryDir: string;
  devFuse: string;
  dmControl: string;
}

export const DEFAULT_REGISTRY_DIR = '/run/powercut-rig/disks';

/** faults/helper/pfdisk in the source tree, whether this module runs from source or from dist/. */
export function defaultHelperPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const faultsDir = basename(dirname(here)) === 'dist' ? join(here, '..', '..', 'faults') : here;
  return join(faultsDir, 'helper', 'pfdisk');
}

export function diskEnvironmentFromEnv(env: NodeJS.ProcessEnv = process.env): DiskEnvironment {
  return {
    helperPath: env.RIG_HELPER || defaultHelperPath(),
    registryDir: env.RIG_REGISTRY_DIR || DEFAULT_REGISTRY_DIR,
    devFuse: env.RIG_DEV_FUSE || '/dev/fuse',
    dmControl: env.RIG_DM_CONTROL || '/dev/mapper/control',
  };
}
