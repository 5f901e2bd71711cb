/**
 * A disk that cannot lose power: a loop device straight over an image file, its filesystem mounted
 * in DIR/mnt. For work that only reads a crash image and lets a server recover on it, never cuts:
 * an explore state's judging, and the store its crash images are cloned in (./clone-store.ts). No
 * helper serves it, so none of its I/O leaves the kernel. Recorded and registered like a power-fail
 * disk (backend `loop`), so teardown and `rig cleanup` take it down the same way.
 */
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mountSource, mountsAtOrBelow, processStartTime } from './system.js';
import { diskBadInput, diskFailure } from './disk-error.js';
import { readRecord, saveRecord, type DiskRecord } from './disk-record.js';
import { diskEnvironmentFromEnv, type DiskEnvironment } from './disk-environment.js';
import { runCommand } from './run-command.js';
import { loopCallsPath, mountLoop } from './loop-calls.js';
import { tearDownDisk, type TeardownReport } from './teardown.js';
import { FILESYSTEMS, type FsKind } from './filesystems.js';

export interface LoopDiskOptions {
  dir: string; // the disk's folder: its record and DIR/mnt
  image: string; // served where it is, never moved; the disk writes to it
  fs: FsKind;
  /** Make the filesystem first (with these extra mkfs arguments), or mount the one the image holds. */
  format?: { extraArgs: string[] };
  ownerPid?: number;
  environment?: DiskEnvironment;
  signal?: AbortSignal;
}

export class LoopDisk {
  constructor(readonly record: DiskRecord) {}

  /** The filesystem's mount point. */
  get target(): string {
    return this.record.mountPoint!;
  }

  down(): Promise<TeardownReport> {
    return tearDownDisk(readRecord(this.record.dir) ?? this.record);
  }
}

export async function startLoopDisk(opts: LoopDiskOptions): Promise<LoopDisk> {
  const dir = resolve(opts.dir);
  const recipe = FILESYSTEMS[opts.fs];
  if (!recipe.mkfs) throw diskBadInput(`a loop disk carries a filesystem; ${opts.fs} is none`, 'fs');
  if (!existsSync(opts.image)) throw diskBadInput(`${opts.image} does not exist: a loop disk serves an image that is there`);
  if (mountsAtOrBelow(dir).length) throw diskBadInput(`${dir} is already in use by a disk; take that disk down first, or use another folder`, 'dir');
  const environment = opts.environment ?? diskEnvironmentFromEnv();
  const image = realpathSync(opts.image); // as the loop device names its backing file
  const owner = opts.ownerPid ?? process.pid;
  const mnt = join(dir, 'mnt');
  let record: DiskRecord = {
    version: 1, dir, image, device: image, backend: 'loop',
    fuseDir: join(dir, 'fuse'), controlSocket: join(dir, 'control.sock'), journalFile: join(dir, 'journal.bin'), // never made: no helper
    fs: opts.fs, atomicUnit: 512, pageSize: 512, journalMaxBytes: 0, sizeBytes: statSync(image).size,
    helperPid: null, loopDevice: null, mountPoint: null, createdAt: new Date().toISOString(),
    owner: { pid: owner, startTime: processStartTime(owner) }, registryDir: environment.registryDir,
  };
  mkdirSync(mnt, { recursive: true });
  saveRecord(record);
  try {
    opts.signal?.throwIfAborted();
    if (opts.format) {
      // mkfs makes the filesystem in the file itself: no device is needed for it
      const made = await runCommand(recipe.mkfs, [...recipe.args, ...opts.format.extraArgs, image]);
      if (made.exitCode !== 0) throw diskFailure(`${recipe.mkfs} failed: ${(made.stderr || made.stdout).trim()}`);
    }
    // one call attaches a loop device and mounts it; the device lets go of the image at the unmount (autoclear)
    const failed = await mountLoop(image, mnt, mountType(opts.fs), mountData(opts.fs), loopCallsPath(environment.helperPath)).then(() => null, (error: Error) => error.message);
    const loopDevice = mountSource(mnt);
    record = { ...record, loopDevice, mountPoint: loopDevice ? mnt : null };
    saveRecord(record);
    if (failed || !loopDevice) throw diskFailure(`the loop disk over ${image} did not mount: ${failed ?? 'nothing mounted'}; run 'rig cleanup' if loop devices are left over`);
    return new LoopDisk(record);
  } catch (error) {
    await tearDownDisk(readRecord(dir) ?? record);
    throw error;
  }
}

/** The kernel's name for a filesystem the disk can carry. */
function mountType(fs: FsKind): string {
  return FILESYSTEMS[fs].mkfs!.replace(/^mkfs\./, '');
}

/**
 * A disk that cannot lose power needs no cache flushes. ext4 mounted with barrier=0 sends the loop
 * device none, so a recovery's every fsync no longer ends in an fsync of the image's file (in the
 * clone store, its own XFS log and then the host's file below it). The writes land as before, and
 * what is read back is the same; only their durability across a crash of the host goes, which a
 * state's judging never relies on. XFS has had no such option since Linux 4.19.
 */
export function mountData(fs: FsKind): string | null {
  return mountType(fs) === 'ext4' ? 'barrier=0' : null;
}
