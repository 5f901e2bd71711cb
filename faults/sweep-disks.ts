/**
 * Finds power-fail disks an earlier run left behind and takes them down: every registered disk
 * whose owner process is gone, or whose helper is gone while the record still names a stack, or
 * (asked for by folder) a disk nobody owns any more. Acts only through tearDownDisk, so only on what
 * the record names and only after checking each piece is still the disk's own.
 */
import { resolve } from 'node:path';
import { diskEnvironmentFromEnv } from './disk-environment.js';
import { forgetRecord, readRecord, registeredDisks, type DiskOwner, type DiskRecord } from './disk-record.js';
import { tearDownDisk } from './teardown.js';
import { deviceExists } from './dm/dmsetup.js';
import { loopBackingFile, mountsAtOrBelow, processAlive, processCommandLine, processStartTime } from './system.js';

export interface SweepScope {
  /** Only this work folder, and also a healthy disk handed over by `rig disk up`. */
  dir?: string;
  /** The registry of live disks to sweep (default: the environment's). */
  registryDir?: string;
}

export interface SweepOutcome {
  removed: string[]; // one line per thing taken away
  kept: string[]; // asked for, but still in use: one line each saying why
  problems: string[];
}

function ownerAlive(owner: DiskOwner): boolean {
  if (!processAlive(owner.pid)) return false;
  return owner.startTime === null || processStartTime(owner.pid) === owner.startTime;
}

/** The disk's own machinery is up: its helper, or for a dm disk its devices. */
function helperAlive(record: DiskRecord): boolean {
  if (record.backend === 'dm') return !!record.dm && (deviceExists(record.dm.flakeyName) || deviceExists(record.dm.logName));
  if (!processAlive(record.helperPid)) return false;
  return processCommandLine(record.helperPid!).includes(`--control=${record.controlSocket}`);
}

/** Whether anything the record names is still there (a helper, a mount, our loop device). */
function anythingLeft(record: DiskRecord): boolean {
  const loop = record.loopDevice ? loopBackingFile(record.loopDevice) : null;
  if (record.backend === 'dm') {
    const ours = (dev: string | null, file: string | undefined) => !!dev && !!file && loopBackingFile(dev) === file;
    return helperAlive(record) || mountsAtOrBelow(record.dir).length > 0 || ours(record.dm?.dataLoop ?? null, record.image) || ours(record.dm?.logLoop ?? null, record.dm?.logImage);
  }
  if (record.backend === 'loop') return mountsAtOrBelow(record.dir).length > 0 || loop === record.device;
  return helperAlive(record) || mountsAtOrBelow(record.dir).length > 0 || !!loop?.startsWith(record.fuseDir);
}

/** Why this disk should go, or null to leave it. */
function reasonToSweep(record: DiskRecord, byName: boolean): string | null {
  const owner = record.owner ?? null;
  if (owner && !ownerAlive(owner)) return `its owner pid ${owner.pid} is gone`;
  if (owner) return null; // a live owner takes its own disk down
  if (record.backend === 'loop') return 'nothing owns it'; // no helper keeps it up: its owner alone did
  if (!helperAlive(record)) return record.backend === 'dm' ? 'its devices are gone' : 'its helper is gone';
  return byName ? 'asked for by its folder' : null;
}

function describe(record: DiskRecord, report: Awaited<ReturnType<typeof tearDownDisk>>): string[] {
  const lines = [
    ...report.unmounted.map((m) => `unmounted ${m}`),
    ...(record.backend === 'dm'
      ? [...(report.removed ?? []).map((n) => `removed device-mapper device ${n}`), ...report.detached.map((d) => `detached ${d} (a loop device of ${record.dir})`)]
      : report.detached.map((d) => `detached ${d} (was on ${record.device})`)),
  ];
  if (report.helperStopped) {
    lines.push(`stopped helper pid ${record.helperPid}${report.helperKilled ? ' (SIGKILL)' : ''} of ${record.dir}`);
  }
  return lines;
}

async function sweepOne(record: DiskRecord, registryDir: string, byName: boolean, out: SweepOutcome): Promise<void> {
  const registered = registeredDisks(registryDir).some((r) => r.dir === record.dir);
  if (!registered && !anythingLeft(record)) return;
  const why = reasonToSweep(record, byName);
  if (!why) {
    if (byName) out.kept.push(`kept ${record.dir}: held by running pid ${record.owner?.pid}; stop it first`);
    return;
  }
  const report = await tearDownDisk(record, { lazy: true });
  const lines = describe(record, report);
  if (!lines.length && registered) lines.push(`forgot ${record.dir}: ${why}, and nothing of it was left`);
  out.removed.push(...lines);
  out.problems.push(...report.problems.map((p) => `${record.dir}: ${p}`));
  if (report.problems.length === 0) forgetRecord({ dir: record.dir, registryDir }); // also when disk.json and registry differ
}

/** Takes down left-over disks (all registered ones, or the one in scope.dir). */
export async function sweepDisks(scope: SweepScope = {}): Promise<SweepOutcome> {
  const out: SweepOutcome = { removed: [], kept: [], problems: [] };
  const registryDir = scope.registryDir ?? diskEnvironmentFromEnv().registryDir;
  if (scope.dir) {
    const dir = resolve(scope.dir);
    const record = readRecord(dir) ?? registeredDisks(registryDir).find((r) => r.dir === dir) ?? null;
    if (record) await sweepOne(record, registryDir, true, out);
    return out;
  }
  for (const record of sweepOrder(registeredDisks(registryDir))) await sweepOne(record, registryDir, false, out);
  return out;
}

/** A disk whose image lies inside another disk's folder (a crash image in a clone store,
 * ./clone-store.ts) goes before that disk, which cannot let go while it is still in use. */
export function sweepOrder(records: DiskRecord[]): DiskRecord[] {
  const inside = (r: DiskRecord) => records.some((o) => o !== r && r.image.startsWith(`${o.dir}/`));
  return [...records.filter(inside), ...records.filter((r) => !inside(r))];
}
