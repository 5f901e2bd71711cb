/**
 * Checks made before a disk creates anything, so bad input costs nothing and leaves nothing behind.
 * Each failure is one line naming the problem and the fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { diskBadInput } from './disk-error.js';
import { readRecord, type DiskBackend } from './disk-record.js';
import { FILESYSTEMS, diskSizeProblem, type FsKind } from './filesystems.js';
import type { DiskEnvironment } from './disk-environment.js';
import { commandExists, mountsAtOrBelow, processAlive } from './system.js';
import { runCommand } from './run-command.js';

export interface PreflightInput {
  dir: string;
  fs: FsKind;
  sizeBytes: number;
  environment: DiskEnvironment;
  /** The dm backend needs neither FUSE nor the helper (faults/dm/dm-preflight.ts checks its own). */
  backend?: DiskBackend;
}

export async function preflightDisk(input: PreflightInput): Promise<void> {
  const recipe = FILESYSTEMS[input.fs];
  const sizeProblem = diskSizeProblem(input.fs, input.sizeBytes);
  if (sizeProblem) throw diskBadInput(sizeProblem, 'sizeBytes');
  const { devFuse, helperPath } = input.environment;
  const fuse = input.backend !== 'dm';
  if (fuse && !existsSync(devFuse)) {
    throw diskBadInput(`${devFuse} does not exist; load the fuse module (modprobe fuse) or run where FUSE is available`);
  }
  if (fuse && !existsSync(helperPath)) {
    throw diskBadInput(`the power-fail disk helper ${helperPath} is not built; run make build`);
  }
  if (recipe.mkfs && !(await commandExists(recipe.mkfs))) {
    const pkg = recipe.mkfs.startsWith('mkfs.xfs') ? 'xfsprogs' : 'e2fsprogs';
    throw diskBadInput(`${recipe.mkfs} is not installed, needed for ${input.fs}; apt-get install ${pkg}`, 'fs');
  }
  for (const tool of fuse ? ['losetup', 'fusermount3'] : ['losetup']) {
    if (!(await commandExists(tool))) throw diskBadInput(`${tool} is not installed; apt-get install ${tool === 'losetup' ? 'mount' : 'fuse3'}`);
  }
  assertDirFree(input.dir);
  await assertFreeLoopDevice();
}

function assertDirFree(dir: string): void {
  const record = readRecord(dir);
  const busy = mountsAtOrBelow(dir).length > 0 || (record && (processAlive(record.helperPid) || (record.backend === 'dm' && record.dm?.dataLoop)));
  if (busy) {
    throw diskBadInput(`${dir} is already in use by a power-fail disk; take that disk down first, or use another folder`, 'dir');
  }
}

async function assertFreeLoopDevice(): Promise<void> {
  const r = await runCommand('losetup', ['--find']);
  if (r.exitCode !== 0 || !r.stdout.trim()) {
    throw diskBadInput(`no free loop device (${r.stderr.trim() || 'losetup --find found none'}); detach unused ones (losetup -D for yours) or run 'rig cleanup'`);
  }
}

/** The kernel's limit on loop devices, for error messages and tests. */
export function maxLoopDevices(): number | null {
  try {
    return Number(readFileSync('/sys/module/loop/parameters/max_loop', 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

