/**
 * Where a cycle's server lives: the datadir on the disk's mount, and a short run directory on the
 * host for its socket (a unix socket path must stay under 108 bytes, and cycle folders can be deep).
 * The run directory names the rig process that made it (RUN_DIR_OWNER), so a sweep can tell a
 * killed run's server from a live one's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentOwner, formatOwner } from '../process-owner.js';

export const DATADIR_NAME = 'data';
export const RUN_DIR_PREFIX = 'rig-srv-';
export const RUN_DIR_OWNER = 'owner';

export function datadirOn(mountPoint: string): string {
  return join(mountPoint, DATADIR_NAME);
}

/** Where run directories are made: the system's temp folder. */
export function runDirParent(): string {
  return tmpdir();
}

export function makeRunDir(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(runDirParent(), RUN_DIR_PREFIX));
  writeFileSync(join(path, RUN_DIR_OWNER), `${formatOwner(currentOwner())}\n`);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
