/**
 * The power-fail disk as one handle: image -> FUSE helper -> loop device (direct I/O) -> filesystem.
 * startDisk() builds the stack (every piece recorded in DIR/disk.json as it appears, and the whole
 * stack taken down again if any step fails); the handle arms triggers, cuts, and tears down.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, truncateSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { REPLY_TIMEOUT_MS, refusal, sendCommand } from './control-client.js';
import { diskFailure } from './disk-error.js';
import { readRecord, saveRecord, type DiskBackend, type DiskOwner, type DiskRecord } from './disk-record.js';
import { FILESYSTEMS, type FsKind } from './filesystems.js';
import { diskEnvironmentFromEnv, type DiskEnvironment } from './disk-environment.js';
import { deviceHelperArgs, type DeviceModel } from './device-model.js';
import type { HelperStatus } from './helper-status.js';
import { ORDER_LOG_FILE } from './order-log.js';
import { preflightDisk } from './preflight.js';
import { noteHelper } from './helper-exits.js';
import { processAlive, processStartTime, waitFor } from './system.js';
import { tearDownDisk, type TeardownReport } from './teardown.js';
import { armCommand, type TriggerSpec } from './trigger.js';
import { runCommand, startProcess } from './run-command.js';

export interface DiskOptions {
  dir: string;
  sizeBytes: number;
  fs: FsKind;
  atomicUnit: number;
  pageSize: number; // the unit the armed trigger counts pending writes in
  journalMaxBytes: number; // the cache bound: past it the oldest unflushed writes retire as durable
  /** The device: its write cache (volatile or durable) and timing (faults/device-model.ts). */
  model: DeviceModel;
  /** Seeds the device's latency draws (default 1). */
  latencySeed?: number;
  trigger?: TriggerSpec | null; // armed once the stack is up; null = none yet
  /** Start from this image (already formatted) instead of a fresh sparse one; copied sparsely. */
  fromImage?: string;
  /** Serve this image (already formatted) in place: it becomes DIR/image.img by rename. */
  adoptImage?: string;
  /** The process the disk lives and dies with (default: this one); `rig cleanup` removes the disk
   * once that process is gone. */
  ownerPid?: number;
  /** Aborting stops the bring-up between steps; what was built is taken down again. */
  signal?: AbortSignal;
  /** Helper, registry and FUSE device (default: read from the environment now). */
  environment?: DiskEnvironment;
  /** Record every write (with its data) and flush from the start to `path`, at most `maxBytes`
   * (format: faults/recording.ts; the driver's name for it in a disk folder is RECORDING_FILE). */
  record?: { path: string; maxBytes: number };
  /** Where the cut happens: the FUSE helper (default) or the kernel's device-mapper (faults/dm/). */
  backend?: DiskBackend;
}

/**
 * The helper answers a cut only once its journal is dumped, and the dump writes up to the journal
 * bound (hundreds of MiB). A fixed command timeout would call a slow dump a dead helper, so the
 * cut replies get the usual 5 s plus the bound's time at the slowest rate the rig accepts for its
 * work folder.
 */
const DUMP_MIN_BYTES_PER_MS = (8 * 1024 * 1024) / 1000;

function cutReplyTimeoutMs(journalMaxBytes: number): number {
  return REPLY_TIMEOUT_MS + Math.ceil(journalMaxBytes / DUMP_MIN_BYTES_PER_MS);
}

function ownerOf(pid: number | null): DiskOwner | null {
  return pid === null ? null : { pid, startTime: processStartTime(pid) };
}

export class PowerFailDisk {
  constructor(public record: DiskRecord) {}

  /** The filesystem's mount point, or the loop device for fs `none`. */
  get target(): string {
    return this.record.mountPoint ?? this.record.loopDevice!;
  }

  status(): Promise<HelperStatus> {
    return sendCommand<HelperStatus>(this.record.controlSocket, 'status');
  }

  /** Whether the disk's own machinery is up (its helper). */
  isUp(): boolean {
    return processAlive(this.record.helperPid);
  }

  async arm(trigger: TriggerSpec | null): Promise<void> {
    await sendCommand(this.record.controlSocket, armCommand(trigger));
  }

  /**
   * Tells the disk where the server keeps page copies (its doublewrite area): an armed trigger
   * then counts only the home writes outside them, and waits while a copy is still in flight.
   */
  async addCopyRange(offset: number, length: number): Promise<void> {
    await sendCommand(this.record.controlSocket, `copy-range ${offset} ${length}`);
  }

  /** Forgets the copy ranges: an armed trigger counts the pages of every write again. */
  async clearCopyRanges(): Promise<void> {
    await sendCommand(this.record.controlSocket, 'copy-range none');
  }

  /**
   * Tells the disk of a device range whose writes an armed trigger must not count (the server's
   * temporary tablespaces, which recovery never reads).
   */
  async addSkipRange(offset: number, length: number): Promise<void> {
    await sendCommand(this.record.controlSocket, `skip-range ${offset} ${length}`);
  }

  /** Cuts now. Like every cut reply, a rig failure if the journal dump at the cut failed. */
  cut(): Promise<HelperStatus> {
    return sendCommand<HelperStatus>(this.record.controlSocket, 'cut', this.cutReplyTimeoutMs());
  }

  /** Resolves with the status at the cut, or null if it has not fired within timeoutMs. */
  async waitCut(timeoutMs: number): Promise<HelperStatus | null> {
    const command = `wait-cut ${timeoutMs}`;
    try {
      return await sendCommand<HelperStatus>(this.record.controlSocket, command, timeoutMs + this.cutReplyTimeoutMs());
    } catch (error) {
      if ((error as Error).message === refusal(command, 'timeout')) return null;
      throw error;
    }
  }

  /** The status at a cut that already fired, once its journal is dumped; throws if the dump failed. */
  async cutStatus(): Promise<HelperStatus> {
    const status = await this.waitCut(0);
    if (!status) throw diskFailure(`the disk in ${this.record.dir} has not been cut`);
    return status;
  }

  private cutReplyTimeoutMs(): number {
    return cutReplyTimeoutMs(this.record.journalMaxBytes);
  }

  /** Hands the disk to another process, or to nobody (null: it stays up until `rig disk down`
   * or an explicit `rig cleanup --dir`). */
  setOwner(pid: number | null): void {
    this.record = { ...(readRecord(this.record.dir) ?? this.record), owner: ownerOf(pid) };
    saveRecord(this.record);
  }

  /** After a cut: held and later requests fail with EIO, so processes blocked in them can go. */
  async release(): Promise<void> {
    await sendCommand(this.record.controlSocket, 'release');
  }

  /** Tears the stack down: held I/O fails with EIO first if the disk was cut. */
  down(): Promise<TeardownReport> {
    return tearDownDisk(readRecord(this.record.dir) ?? this.record);
  }

  /** The status at the cut as the disk accounts for it once down: the helper knew it exactly at
   * the cut; a dm disk knows it only from its log (faults/dm/dm-disk.ts). */
  settledStatus(fired: HelperStatus): HelperStatus {
    return fired;
  }
}

export function newRecord(opts: DiskOptions, dir: string): DiskRecord {
  return {
    version: 1,
    dir,
    image: join(dir, 'image.img'),
    fuseDir: join(dir, 'fuse'),
    device: join(dir, 'fuse', 'disk'),
    controlSocket: join(dir, 'control.sock'),
    journalFile: join(dir, 'journal.bin'),
    fs: opts.fs,
    atomicUnit: opts.atomicUnit,
    pageSize: opts.pageSize,
    journalMaxBytes: opts.journalMaxBytes,
    model: opts.model,
    sizeBytes: opts.sizeBytes,
    helperPid: null,
    loopDevice: null,
    mountPoint: null,
    createdAt: new Date().toISOString(),
    owner: ownerOf(opts.ownerPid ?? process.pid),
    ...(opts.record ? { recording: { path: resolve(opts.record.path), maxBytes: opts.record.maxBytes } } : {}),
  };
}

async function startHelper(record: DiskRecord, helperPath: string, model: DeviceModel, latencySeed: number): Promise<DiskRecord> {
  const helper = await startProcess(
    helperPath,
    [
      `--image=${record.image}`,
      `--control=${record.controlSocket}`,
      `--journal=${record.journalFile}`,
      `--unit=${record.atomicUnit}`,
      `--page-size=${record.pageSize}`,
      `--journal-max=${record.journalMaxBytes}`,
      ...deviceHelperArgs(model, latencySeed),
      `--order-log=${join(record.dir, ORDER_LOG_FILE)}`,
      ...(record.recording ? [`--record=${record.recording.path}`, `--record-max=${record.recording.maxBytes}`] : []),
      record.fuseDir,
    ],
    { logPath: join(record.dir, 'helper.log'), detached: true, keepsRigAlive: false },
  ).catch((error: Error) => {
    throw diskFailure(`power-fail disk helper did not come up: ${error.message}`);
  });
  noteHelper(helper.pid, helper.exited);
  const withPid = { ...record, helperPid: helper.pid };
  saveRecord(withPid);
  const ready = await waitFor(async () => {
    if (!processAlive(withPid.helperPid)) return true;
    try {
      await sendCommand(record.controlSocket, 'status', 1000);
      return true;
    } catch {
      return false;
    }
  }, 10_000, 5);
  if (!ready || !processAlive(withPid.helperPid)) {
    const why = readFileSync(join(record.dir, 'helper.log'), 'utf8').trim().split('\n').pop();
    throw diskFailure(`power-fail disk helper did not come up${why ? `: ${why}` : ''}`);
  }
  return withPid;
}

async function attachLoop(record: DiskRecord): Promise<DiskRecord> {
  const r = await runCommand('losetup', ['--find', '--show', '--direct-io=on', record.device]);
  if (r.exitCode !== 0) throw diskFailure(`losetup could not attach ${record.device}: ${r.stderr.trim()}`);
  const withLoop = { ...record, loopDevice: r.stdout.trim() };
  saveRecord(withLoop);
  return withLoop;
}

/** The disk's image file: the one adopted (moved in), a sparse copy of `fromImage`, or a fresh
 * sparse file of the disk's size. Both backends start from it. */
export async function placeImage(opts: DiskOptions, image: string): Promise<void> {
  if (opts.adoptImage) {
    renameSync(opts.adoptImage, image);
  } else if (opts.fromImage) {
    await execa('cp', ['--sparse=always', opts.fromImage, image]);
  } else {
    if (existsSync(image)) rmSync(image);
    closeSync(openSync(image, 'w'));
    truncateSync(image, opts.sizeBytes);
  }
}

/** Makes the filesystem on the record's block device (when `format`) and mounts it in DIR/mnt;
 * a raw disk (no filesystem) is left as it is. */
export async function makeAndMount(record: DiskRecord, format: boolean): Promise<DiskRecord> {
  const recipe = FILESYSTEMS[record.fs];
  if (!recipe.mkfs) return record;
  if (format) {
    const r = await runCommand(recipe.mkfs, [...recipe.args, record.loopDevice!]);
    if (r.exitCode !== 0) throw diskFailure(`${recipe.mkfs} failed: ${(r.stderr || r.stdout).trim()}`);
  }
  const mnt = join(record.dir, 'mnt');
  mkdirSync(mnt, { recursive: true });
  const r = await runCommand('mount', [record.loopDevice!, mnt]);
  if (r.exitCode !== 0) throw diskFailure(`mount ${record.loopDevice} failed: ${r.stderr.trim()}`);
  const mounted = { ...record, mountPoint: mnt };
  saveRecord(mounted);
  return mounted;
}

/** Builds the FUSE stack in `opts.dir` (faults/start-disk.ts chooses the backend). */
export async function startFuseDisk(opts: DiskOptions): Promise<PowerFailDisk> {
  const dir = resolve(opts.dir);
  const environment = opts.environment ?? diskEnvironmentFromEnv();
  await preflightDisk({ dir, fs: opts.fs, sizeBytes: opts.sizeBytes, environment });
  let record: DiskRecord = { ...newRecord(opts, dir), registryDir: environment.registryDir };
  mkdirSync(record.fuseDir, { recursive: true });
  rmSync(record.journalFile, { force: true });
  rmSync(join(dir, ORDER_LOG_FILE), { force: true });
  saveRecord(record);
  try {
    await placeImage(opts, record.image);
    opts.signal?.throwIfAborted();
    record = await startHelper(record, environment.helperPath, opts.model, opts.latencySeed ?? 1);
    opts.signal?.throwIfAborted();
    record = await attachLoop(record);
    opts.signal?.throwIfAborted();
    record = await makeAndMount(record, !opts.fromImage && !opts.adoptImage);
    opts.signal?.throwIfAborted();
    const disk = new PowerFailDisk(record);
    if (opts.trigger) await disk.arm(opts.trigger);
    return disk;
  } catch (error) {
    await tearDownDisk(readRecord(dir) ?? record);
    throw error;
  }
}

