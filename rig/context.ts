/**
 * Where this run of the rig keeps its things, read once from the environment where the CLI starts
 * (or built by a test) and handed down: nothing below the CLI reads these variables itself.
 *   POWERCUT_RIG_WORK_DIR  the rig's work dir: its own Docker engine, image cache, debootstrap cache
 *   RIG_CACHE              prepared images (a datadir after its first clean start), kept between runs
 *   DOCKER_HOST            the Docker engine to use; when set, the only one
 *   RIG_HELPER, RIG_REGISTRY_DIR, RIG_DEV_FUSE   the disk's own (faults/disk-environment.ts)
 */
import { diskEnvironmentFromEnv, type DiskEnvironment } from '../faults/disk-environment.js';

export interface RigContext {
  workDir: string;
  cacheRoot: string;
  dockerHost: string | null;
  disk: DiskEnvironment;
}

export const DEFAULT_WORK_DIR = '/var/lib/powercut-rig';
export const DEFAULT_CACHE_ROOT = '/var/cache/powercut-rig/prepared';

export function contextFromEnv(env: NodeJS.ProcessEnv = process.env): RigContext {
  return {
    workDir: env.POWERCUT_RIG_WORK_DIR || DEFAULT_WORK_DIR,
    cacheRoot: env.RIG_CACHE || DEFAULT_CACHE_ROOT,
    dockerHost: env.DOCKER_HOST || null,
    disk: diskEnvironmentFromEnv(env),
  };
}
