/**
 * Where a cycle's server lives: the datadir on the disk's mount, and a short run directory on the
 * host for its socket (a unix socket path must stay under 108 bytes, and cycle folders can be deep).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DATADIR_NAME = 'data';

export function datadirOn(mountPoint: string): string {
  return join(mountPoint, DATADIR_NAME);
}

export function makeRunDir(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'rig-srv-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
