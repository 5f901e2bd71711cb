/**
 * The power-fail disk on the kernel's block layer: image -> loop device -> dm-log-writes (every
 * write with its data, every flush, into a log on a second loop device) -> dm-flakey -> filesystem.
 * No process sits in the I/O path. The cut holds I/O by suspending the flakey device (requests
 * under way complete, new ones wait) and marks the log; release makes the flakey device fail
 * every request; teardown turns the log into the journal the FUSE disk dumps at its cut, so the
 * same plans make the same kind of crash image (faults/dm/log-journal.ts).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statfsSync, truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { diskFailure } from '../disk-error.js';
import { readRecord, saveRecord, type DiskRecord, type DmParts } from '../disk-record.js';
import { BUCKET_NAMES, type HelperStatus } from '../helper-status.js';
import { PowerFailDisk, makeAndMount, newRecord, placeImage, type DiskOptions } from '../power-fail-disk.js';
import type { DiskEnvironment } from '../disk-environment.js';
import { preflightDisk } from '../preflight.js';
import { tearDownDisk } from '../teardown.js';
import { formatTrigger, type TriggerSpec } from '../trigger.js';
import { CutWatch, watchPath, type Hold } from './cut-watch.js';
import { preflightDm } from './dm-preflight.js';
import { DM_CUT_FILE, type DmCutAccount } from './dm-teardown.js';
import {
  completedWrites,
  createDevice,
  deviceExists,
  deviceNumber,
  dmNames,
  flakeyTable,
  logMark,
  logWritesTable,
  mapperPath,
  replaceTable,
  suspendHolding,
} from './dmsetup.js';
import { ARM_MARK } from './log-journal.js';
import { CUT_MARK } from './log-writes.js';

const SECTOR = 512;
/** The log holds every write of the disk's life with a sector of header each: room for several
 * times the disk's size (the file is sparse: only what is logged takes space). */
const LOG_TIMES_SIZE = 8;

export class DmDisk extends PowerFailDisk {
  private trigger: TriggerSpec | null = null;
  private watch: CutWatch | null = null;
  private cutting: Promise<HelperStatus> | null = null;
  private waiters: ((s: HelperStatus | Error) => void)[] = [];
  private failed: Error | null = null; // the trigger fired and the hold failed

  private get dm(): DmParts {
    return this.record.dm!;
  }

  override isUp(): boolean {
    return deviceExists(this.dm.flakeyName);
  }

  override async status(): Promise<HelperStatus> {
    const fresh = readRecord(this.record.dir);
    if (fresh) this.record = fresh;
    const cut = this.dm.cut;
    const writes = this.isUp() ? completedWrites(await deviceNumber(this.dm.flakeyName)) : 0;
    return {
      cut: !!cut,
      cutReason: cut?.reason ?? '',
      released: this.dm.released,
      dumping: false,
      dumpError: 0,
      broken: '',
      trigger: this.trigger ? formatTrigger(this.trigger).split(' ')[0]! : 'none',
      triggerN: this.trigger?.kind === 'armed' ? this.trigger.pendingPageWrites : this.trigger?.kind === 'after-writes' ? this.trigger.writes : 0,
      pending: cut?.pendingEstimate ?? 0,
      pendingPageWrites: cut?.pendingEstimate ?? 0,
      cutPending: cut?.pendingEstimate ?? 0,
      cutPendingPageWrites: cut?.pendingEstimate ?? 0,
      journalBytes: 0,
      retired: 0,
      reads: 0,
      writes,
      flushes: 0,
      bytesWritten: 0,
      pageWrites: 0,
      pageWritesMisaligned: 0,
      pageWritesStraddling: 0,
      unit: this.record.atomicUnit,
      pageSize: this.record.pageSize,
      cache: 'volatile',
      completedDurable: 0,
      inService: 0,
      queued: 0,
      writesBySize: BUCKET_NAMES.map(() => 0),
    };
  }

  override async arm(trigger: TriggerSpec | null): Promise<void> {
    this.trigger = trigger;
    if (this.dm.cut) return;
    if (this.dm.adopted && trigger) throw diskFailure(`the disk in ${this.record.dir} serves an image it adopted and kept no copy of, so it cannot be cut`);
    await logMark(this.dm.logName, ARM_MARK);
    if (!trigger || trigger.kind === 'manual') {
      // nothing to watch: a manual cut holds through dmsetup (and this process may end, as
      // rig disk up does)
      await this.watch?.arm(null);
      return;
    }
    if (!this.watch) {
      const watch = CutWatch.start(this.dm.watcher, this.dm.flakeyName, `/sys/block/${basename(this.dm.dataLoop!)}/stat`, join(this.record.dir, 'watch.trace'));
      this.watch = watch;
      watch.whenHeld().then((hold) => this.afterHold(hold)).catch((error: Error) => {
        this.failed = error;
        for (const w of this.waiters.splice(0)) w(error);
      });
    }
    await this.watch.arm(trigger);
  }

  /** The doublewrite area and temporary tablespaces: the dm trigger counts every write, so these
   * tell it nothing (the record says where a cut landed). */
  override async addCopyRange(): Promise<void> {}
  override async clearCopyRanges(): Promise<void> {}
  override async addSkipRange(): Promise<void> {}

  /** Once I/O is held: the log is marked (what follows the mark was unflushed) and the cut recorded. */
  private afterHold(hold: Hold): Promise<HelperStatus> {
    this.cutting ??= (async () => {
      await logMark(this.dm.logName, CUT_MARK);
      this.record = { ...this.record, dm: { ...this.dm, cut: hold } };
      saveRecord(this.record);
      const status = await this.status();
      for (const w of this.waiters.splice(0)) w(status);
      return status;
    })();
    return this.cutting;
  }

  override async cut(): Promise<HelperStatus> {
    if (this.cutting) return this.cutting;
    if (this.dm.cut) return this.status();
    if (this.dm.adopted) throw diskFailure(`the disk in ${this.record.dir} serves an image it adopted and kept no copy of, so it cannot be cut`);
    if (this.watch) return this.afterHold(await this.watch.cut());
    // another process's disk (rig disk cut): no watcher here, and no trigger to race
    await suspendHolding(this.dm.flakeyName);
    return this.afterHold({ reason: 'manual', atMs: 0, pendingEstimate: 0 });
  }

  override async waitCut(timeoutMs: number): Promise<HelperStatus | null> {
    if (this.dm.cut) return this.cutting ?? this.status();
    if (this.cutting) return this.cutting;
    if (this.failed) throw this.failed;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(null);
      }, timeoutMs);
      const done = (s: HelperStatus | Error): void => {
        clearTimeout(timer);
        if (s instanceof Error) reject(s);
        else resolve(s);
      };
      this.waiters.push(done);
    });
  }

  override async cutStatus(): Promise<HelperStatus> {
    const status = await this.waitCut(0);
    if (!status) throw diskFailure(`the disk in ${this.record.dir} has not been cut`);
    return status;
  }

  override async release(): Promise<void> {
    if (!this.dm.cut || this.dm.released) return;
    await replaceTable(this.dm.flakeyName, flakeyTable(this.dm.sectors, mapperPath(this.dm.logName), false));
    this.record = { ...this.record, dm: { ...this.dm, released: true } };
    saveRecord(this.record);
  }

  override down(): ReturnType<PowerFailDisk['down']> {
    this.watch?.stop();
    return tearDownDisk(readRecord(this.record.dir) ?? this.record);
  }

  /** The status at the cut with the counts the log gives once the disk is down. */
  override settledStatus(fired: HelperStatus): HelperStatus {
    const path = join(this.record.dir, DM_CUT_FILE);
    if (!existsSync(path)) return fired;
    const account = JSON.parse(readFileSync(path, 'utf8')) as DmCutAccount;
    return {
      ...fired,
      pending: account.pending,
      pendingPageWrites: account.pendingPageWrites,
      cutPending: account.pending,
      cutPendingPageWrites: account.pendingPageWrites,
      writes: account.stats.writes,
      flushes: account.stats.flushes,
      bytesWritten: account.stats.bytesWritten,
      pageWrites: account.stats.pageWrites,
      pageWritesMisaligned: account.stats.pageWritesMisaligned,
      pageWritesStraddling: account.stats.pageWritesStraddling,
      writesBySize: BUCKET_NAMES.map((n) => account.stats.writesBySize[n] ?? 0),
      ...(account.stats.straddleOffsets ? { straddleOffsets: account.stats.straddleOffsets } : {}),
    };
  }
}

const TMPFS_MAGIC = 0x01021994;

async function attach(file: string): Promise<string> {
  // a file on tmpfs (the guest's /tmp) takes no O_DIRECT: the loop device goes through the page cache
  if (statfsSync(file).type !== TMPFS_MAGIC) {
    const direct = await execa('losetup', ['--find', '--show', '--direct-io=on', file], { reject: false });
    if (direct.exitCode === 0) return direct.stdout.trim();
  }
  const r = await execa('losetup', ['--find', '--show', file], { reject: false });
  if (r.exitCode !== 0) throw diskFailure(`losetup could not attach ${file}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** Builds the dm stack in `dir` (faults/start-disk.ts with backend 'dm'). */
export async function startDmDisk(opts: DiskOptions, dir: string, environment: DiskEnvironment): Promise<DmDisk> {
  await preflightDisk({ dir, fs: opts.fs, sizeBytes: opts.sizeBytes, environment, backend: 'dm' });
  await preflightDm(opts.model, { recording: !!opts.record, watcher: watchPath(environment.helperPath), control: environment.dmControl });
  let record: DiskRecord = { ...newRecord(opts, dir), registryDir: environment.registryDir, backend: 'dm' };
  mkdirSync(dir, { recursive: true });
  rmSync(record.journalFile, { force: true });
  rmSync(join(dir, DM_CUT_FILE), { force: true });
  const names = dmNames(dir);
  const logImage = join(dir, 'log.img');
  let dm: DmParts = {
    logImage,
    base: null,
    baseIsCopy: false,
    dataLoop: null,
    logLoop: null,
    logName: names.log,
    flakeyName: names.flakey,
    watcher: watchPath(environment.helperPath),
    sectors: Math.floor(opts.sizeBytes / SECTOR),
    cut: null,
    released: false,
  };
  const save = (parts: Partial<DiskRecord>): void => {
    record = { ...record, ...parts, dm };
    saveRecord(record);
  };
  save({ backend: 'dm', device: mapperPath(names.flakey) });
  try {
    await placeImage(opts, record.image);
    // an adopted image is served to be read (a scan, a repro): no copy is kept, so such a disk cannot be cut
    if (opts.adoptImage) dm = { ...dm, adopted: true };
    else if (opts.fromImage) dm = { ...dm, base: opts.fromImage };
    rmSync(logImage, { force: true });
    closeSync(openSync(logImage, 'w'));
    truncateSync(logImage, Math.max(opts.sizeBytes * LOG_TIMES_SIZE, 1 << 30));
    save({});
    opts.signal?.throwIfAborted();
    dm = { ...dm, dataLoop: await attach(record.image) };
    save({});
    dm = { ...dm, logLoop: await attach(logImage) };
    save({});
    opts.signal?.throwIfAborted();
    await createDevice(dm.logName, logWritesTable(dm.sectors, dm.dataLoop!, dm.logLoop!));
    await createDevice(dm.flakeyName, flakeyTable(dm.sectors, mapperPath(dm.logName), true));
    save({ loopDevice: mapperPath(dm.flakeyName) });
    opts.signal?.throwIfAborted();
    record = await makeAndMount(record, !opts.fromImage && !opts.adoptImage);
    opts.signal?.throwIfAborted();
    const disk = new DmDisk(record);
    if (opts.trigger) await disk.arm(opts.trigger);
    return disk;
  } catch (error) {
    await tearDownDisk(readRecord(dir) ?? record);
    throw error;
  }
}
