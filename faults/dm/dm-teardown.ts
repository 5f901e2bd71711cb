/**
 * Takes a dm disk apart, top down: held I/O failed (if it was cut), filesystem, the flakey device,
 * the log-writes device (whose removal logs the writes still unflushed, then the kernel's end
 * mark), the two loop devices. Then, for a cut disk, the log becomes what the FUSE disk dumps at
 * its cut: the journal of pending writes beside the image (faults/dm/log-journal.ts), and
 * DIR/dm-cut.json with the exact counts. Acts only on what the record names: devices named for
 * this folder, loop devices still backed by its files.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { encodeJournal } from '../journal.js';
import { saveRecord, type DiskRecord, type DmParts } from '../disk-record.js';
import type { DiskStats } from '../helper-status.js';
import { isMounted, loopBackingFile, mountsAtOrBelow, waitFor } from '../system.js';
import { deviceExists, flakeyTable, mapperPath, removeDevice, replaceTable } from './dmsetup.js';
import { cutOfLog, journalOfLog, settleImage } from './log-journal.js';
import { indexWriteLog } from './log-writes.js';

export const DM_CUT_FILE = 'dm-cut.json';

/** What the log said of the cut, kept beside the journal. */
export interface DmCutAccount {
  reason: string;
  atMs: number;
  pendingEstimate: number; // what the block layer's counter said when the trigger fired
  pending: number;
  pendingPageWrites: number;
  stats: DiskStats;
}

export interface DmTeardownReport {
  unmounted: string[];
  detached: string[];
  removed: string[];
  problems: string[];
}

async function unmountAll(dir: string, lazy: boolean, report: DmTeardownReport): Promise<void> {
  for (const target of mountsAtOrBelow(join(dir, 'mnt'))) {
    for (const args of lazy ? [['-l', target]] : [[target], ['-l', target]]) {
      await execa('umount', args, { reject: false, timeout: 30_000 });
      if (!isMounted(target)) break;
    }
    if (isMounted(target)) report.problems.push(`could not unmount ${target}`);
    else report.unmounted.push(target);
  }
}

async function detach(dev: string | null, file: string, report: DmTeardownReport): Promise<void> {
  if (!dev || loopBackingFile(dev) === null) return;
  if (loopBackingFile(dev) !== file) {
    report.problems.push(`${dev} is no longer backed by ${file}; left alone`);
    return;
  }
  const r = await execa('losetup', ['-d', dev], { reject: false, timeout: 30_000 });
  if (await waitFor(() => loopBackingFile(dev) !== file, 5000)) report.detached.push(dev);
  else report.problems.push(`could not detach ${dev}: ${r.stderr || 'still attached'}`);
}

/** Builds journal.bin and dm-cut.json from the log of a cut disk, then drops the log. */
export function journalFromLog(record: DiskRecord, dm: DmParts): DmCutAccount {
  const log = indexWriteLog(dm.logImage);
  const cut = cutOfLog(log, record.atomicUnit, record.pageSize);
  const journal = journalOfLog(log, cut, dm.base);
  settleImage(record.image, journal);
  writeFileSync(record.journalFile + '.tmp', encodeJournal(journal));
  renameSync(record.journalFile + '.tmp', record.journalFile);
  const account: DmCutAccount = {
    reason: dm.cut!.reason,
    atMs: dm.cut!.atMs,
    pendingEstimate: dm.cut!.pendingEstimate,
    pending: cut.pending.length,
    pendingPageWrites: cut.pendingPageWrites,
    stats: cut.stats,
  };
  writeFileSync(join(record.dir, DM_CUT_FILE), JSON.stringify(account, null, 1) + '\n');
  return account;
}

export async function tearDownDm(record: DiskRecord, lazy: boolean): Promise<DmTeardownReport> {
  const report: DmTeardownReport = { unmounted: [], detached: [], removed: [], problems: [] };
  const dm = record.dm!;
  if (deviceExists(dm.flakeyName) && dm.cut && !dm.released) {
    // the held requests fail, as the FUSE disk's release fails them
    await replaceTable(dm.flakeyName, flakeyTable(dm.sectors, mapperPath(dm.logName), false)).catch((e: Error) => report.problems.push(e.message));
  } else if (deviceExists(dm.flakeyName)) {
    // a disk killed mid-cut may be left suspended: resume it so nothing waits on it for ever
    await execa('dmsetup', ['resume', dm.flakeyName], { reject: false });
  }
  await unmountAll(record.dir, lazy, report);
  for (const name of [dm.flakeyName, dm.logName]) {
    const existed = deviceExists(name);
    const problem = await removeDevice(name);
    if (problem) report.problems.push(problem);
    else if (existed) report.removed.push(name);
  }
  await detach(dm.dataLoop, record.image, report);
  await detach(dm.logLoop, dm.logImage, report);
  const after: DmParts = { ...dm, dataLoop: null, logLoop: null, released: dm.released || !!dm.cut };
  if (report.problems.length === 0 && existsSync(dm.logImage)) {
    if (dm.cut && !existsSync(record.journalFile)) {
      try {
        journalFromLog(record, dm);
      } catch (error) {
        report.problems.push(`the journal could not be built from the write log (kept at ${dm.logImage}): ${(error as Error).message}`);
      }
    }
    if (report.problems.length === 0) {
      rmSync(dm.logImage, { force: true });
      if (dm.baseIsCopy && dm.base) rmSync(dm.base, { force: true });
    }
  }
  saveRecord({ ...record, dm: after, loopDevice: null, mountPoint: null });
  return report;
}
