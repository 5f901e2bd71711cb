/**
 * Takes a disk's stack apart, top down: filesystem, loop device, FUSE mount, helper. Acts only on
 * what the record names (and a loop device attached to its FUSE file, which a run killed during
 * losetup never named), and checks each piece is still ours (the loop device still backed by our
 * FUSE file, the pid still our helper) before touching it. Safe to run twice, and on the remains
 * of a killed run.
 */
import { forgetRecord, saveRecord, type DiskRecord } from './disk-record.js';
import { sendCommand } from './control-client.js';
import { tearDownDm } from './dm/dm-teardown.js';
import { helperExit } from './helper-exits.js';
import { runCommand } from './run-command.js';
import { unmount as unmountLoop } from './loop-calls.js';
import {
  isMounted,
  loopBackingFile,
  loopDevicesBackedBy,
  mountSource,
  mountsAtOrBelow,
  processAlive,
  processCommandLine,
  waitFor,
} from './system.js';

export interface TeardownReport {
  unmounted: string[];
  detached: string[];
  helperKilled: boolean;
  helperStopped: boolean; // it was running and is gone now, by unmount or by SIGKILL
  /** A dm disk's device-mapper devices it removed (faults/dm/). */
  removed?: string[];
  problems: string[];
}

export interface TeardownOptions {
  /** Detach mounts at once (umount -l) instead of trying a plain unmount first: for the remains of
   * a killed run, where a plain unmount may wait on a helper that will never answer. */
  lazy?: boolean;
}

/** If the disk was cut, its held requests must fail before anything above it can let go. */
async function releaseHeldIo(record: DiskRecord): Promise<void> {
  if (!isOurHelper(record)) return;
  try {
    const status = await sendCommand<{ cut: boolean; released: boolean }>(record.controlSocket, 'status', 2000);
    if (status.cut && !status.released) await sendCommand(record.controlSocket, 'release', 2000);
  } catch {
    // a helper that cannot answer is killed below; its FUSE connection then fails every request
  }
}

function isOurHelper(record: DiskRecord): boolean {
  if (!processAlive(record.helperPid)) return false;
  return processCommandLine(record.helperPid!).some((arg) => arg === `--control=${record.controlSocket}`);
}

async function unmount(target: string, report: TeardownReport, fuse: boolean, onlyLazy = false, loop = false): Promise<void> {
  // a loop disk's own call first (no umount process); the commands below if it fails
  if (loop && !onlyLazy && (await unmountLoop(target).then(() => true, () => false))) {
    report.unmounted.push(target);
    return;
  }
  const plain = fuse ? ['fusermount3', ['-u', target]] : ['umount', [target]];
  const lazy = fuse ? ['fusermount3', ['-u', '-z', target]] : ['umount', ['-l', target]];
  for (const [cmd, args] of (onlyLazy ? [lazy] : [plain, lazy]) as [string, string[]][]) {
    const r = await runCommand(cmd, args, { timeoutMs: 30_000 });
    if (r.exitCode === 0 || !isMounted(target)) {
      report.unmounted.push(target);
      return;
    }
  }
  report.problems.push(`could not unmount ${target}`);
}

/**
 * Whether the loop device is still backed by our FUSE file. Its backing path is read as the
 * reader's mount namespace sees it: a disk made in a container that is gone (its mount namespace
 * with it) shows only the path inside the FUSE mount (`/disk`), so that one counts as ours only
 * while our own filesystem is still mounted from that very device (`mountedFrom`, read before
 * the unmount).
 */
function backedByOurFile(record: DiskRecord, dev: string, mountedFrom: string | null): boolean {
  const backing = loopBackingFile(dev);
  if (backing === null) return false;
  if (record.backend === 'loop') return backing === record.device; // a loop disk: straight over its image
  if (backing.startsWith(record.fuseDir)) return true;
  const insideFuse = record.device.startsWith(`${record.fuseDir}/`) ? record.device.slice(record.fuseDir.length) : null;
  return backing === insideFuse && mountedFrom === dev;
}

async function detachLoop(record: DiskRecord, report: TeardownReport, mountedFrom: string | null): Promise<void> {
  // a rig that died while losetup attached the device never named it in the record: the device
  // backed by our FUSE file is ours all the same
  const dev = record.loopDevice ?? loopDevicesBackedBy(record.device)[0] ?? null;
  if (!dev) return;
  // a loop disk's device lets go of its image by itself once unmounted (autoclear), and another
  // disk may take the freed device at once: one no longer over our image is not ours to report
  if (record.backend === 'loop' && (await waitFor(() => !backedByOurFile(record, dev, mountedFrom), 1000, 2))) return;
  if (loopBackingFile(dev) === null) return;
  if (!backedByOurFile(record, dev, mountedFrom)) {
    report.problems.push(`${dev} is no longer backed by ${record.device}; left alone`);
    return;
  }
  const r = await runCommand('losetup', ['-d', dev], { timeoutMs: 30_000 });
  // another disk may take the freed device at once: detached means no longer backed by our file
  const gone = await waitFor(() => !backedByOurFile(record, dev, mountedFrom), 5000);
  if (gone) report.detached.push(dev);
  else report.problems.push(`could not detach ${dev}: ${r.stderr || 'still attached'}`);
}

/** Whether the helper exited within `ms`: on its exit where this process started it, else by polling its pid. */
async function helperGone(pid: number, ms: number): Promise<boolean> {
  const exit = helperExit(pid);
  if (!exit) return waitFor(() => !processAlive(pid), ms);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([exit.then(() => true), bound]);
  } finally {
    clearTimeout(timer);
  }
}

async function stopHelper(record: DiskRecord, report: TeardownReport, lazy: boolean): Promise<void> {
  const ours = isOurHelper(record);
  if (isMounted(record.fuseDir)) await unmount(record.fuseDir, report, true, lazy);
  if (!ours) return;
  if (!(await helperGone(record.helperPid!, 5000))) {
    process.kill(record.helperPid!, 'SIGKILL');
    report.helperKilled = true;
    await waitFor(() => !processAlive(record.helperPid), 5000);
  }
  if (processAlive(record.helperPid)) report.problems.push(`helper pid ${record.helperPid} did not exit`);
  else report.helperStopped = true;
}

export async function tearDownDisk(record: DiskRecord, opts: TeardownOptions = {}): Promise<TeardownReport> {
  const report: TeardownReport = { unmounted: [], detached: [], helperKilled: false, helperStopped: false, problems: [] };
  const lazy = opts.lazy ?? false;
  if (record.backend === 'dm' && record.dm) {
    const dm = await tearDownDm(record, lazy);
    if (dm.problems.length === 0) forgetRecord(record);
    return { ...report, unmounted: dm.unmounted, detached: dm.detached, removed: dm.removed, problems: dm.problems };
  }
  await releaseHeldIo(record);
  const mountedFrom = record.mountPoint ? mountSource(record.mountPoint) : null;
  for (const target of mountsAtOrBelow(`${record.dir}/mnt`)) await unmount(target, report, false, lazy, record.backend === 'loop');
  await detachLoop(record, report, mountedFrom);
  await stopHelper(record, report, lazy);
  saveRecord({ ...record, helperPid: null, loopDevice: null, mountPoint: null });
  if (report.problems.length === 0) forgetRecord(record);
  return report;
}
