/**
 * What a power-fail disk created, written to DIR/disk.json as each piece comes into being, and
 * registered under the rig's run directory so `rig cleanup` can find a disk whose owner was killed.
 * Teardown and cleanup act only on what a record names.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DEFAULT_REGISTRY_DIR } from './disk-environment.js';
import type { DeviceModel } from './device-model.js';
import type { FsKind } from './filesystems.js';

export interface DiskRecord {
  version: 1;
  dir: string;
  image: string;
  fuseDir: string;
  device: string; // the file the loop device sits on: the FUSE-served one (a loop disk: its image)
  controlSocket: string;
  journalFile: string;
  fs: FsKind;
  atomicUnit: number;
  pageSize: number;
  journalMaxBytes: number; // the journal bound the helper was started with
  /** The device the helper was started as. Absent in records written before it was kept. */
  model?: DeviceModel;
  sizeBytes: number;
  helperPid: number | null;
  loopDevice: string | null;
  mountPoint: string | null; // set once the filesystem is mounted
  createdAt: string;
  /** The process the disk lives and dies with; null once handed over (`rig disk up`). Absent in
   * records written before owners were kept: treated as null. */
  owner?: DiskOwner | null;
  /** Where the disk is registered as live (the DiskEnvironment's registryDir). Absent in records
   * written before it was kept: the default registry. */
  registryDir?: string;
  /** Where the helper records every write and flush (DiskOptions.record); absent: it records none. */
  recording?: { path: string; maxBytes: number };
  /** The block layer the cut happens in: the FUSE helper (absent: written before there was a
   * choice) or the kernel's device-mapper, whose pieces `dm` names. */
  backend?: DiskBackend | 'loop'; // 'loop': no power-fail machinery at all (./loop-disk.ts)
  dm?: DmParts;
}

export const DISK_BACKENDS = ['fuse', 'dm'] as const;
export type DiskBackend = (typeof DISK_BACKENDS)[number];

/** What a dm disk made: loop devices over its image and its write log, and two dm devices. */
export interface DmParts {
  logImage: string; // the file dm-log-writes logs every write to
  base: string | null; // the image the disk started from (null: a fresh, zeroed one)
  baseIsCopy: boolean; // base is the disk's own copy, removed with it
  adopted?: boolean; // it serves an image it adopted and kept no copy of: it cannot be cut
  dataLoop: string | null;
  logLoop: string | null;
  logName: string;
  flakeyName: string;
  watcher: string; // faults/helper/pfdm-watch: the trigger and hold (faults/dm/cut-watch.ts)
  sectors: number;
  /** Set at the cut: why, when (ms since arming), and what the block layer counted pending then. */
  cut: { reason: string; atMs: number; pendingEstimate: number } | null;
  released: boolean;
}

export interface DiskOwner {
  pid: number;
  startTime: string | null; // see processStartTime
}


export function recordPath(dir: string): string {
  return join(dir, 'disk.json');
}

function registryEntry(record: Pick<DiskRecord, 'dir' | 'registryDir'>): string {
  const registry = record.registryDir ?? DEFAULT_REGISTRY_DIR;
  return join(registry, createHash('sha256').update(record.dir).digest('hex').slice(0, 16) + '.json');
}

export function saveRecord(record: DiskRecord): void {
  const body = JSON.stringify(record, null, 2) + '\n';
  for (const path of [recordPath(record.dir), registryEntry(record)]) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path + '.tmp', body);
    renameSync(path + '.tmp', path);
  }
}

/** DIR's record, or null where there is none: no disk.json, or one no disk wrote (teardown acts on
 * what a record names, so a hand-made one is never taken for a disk's). */
export function readRecord(dir: string): DiskRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(recordPath(dir), 'utf8'));
  } catch {
    return null;
  }
  const record = value as Partial<DiskRecord> | null;
  return typeof record === 'object' && record !== null && record.version === 1 && typeof record.dir === 'string' && typeof record.image === 'string' ? (record as DiskRecord) : null;
}

export function forgetRecord(record: Pick<DiskRecord, 'dir' | 'registryDir'>): void {
  rmSync(registryEntry(record), { force: true });
}

/** Every disk registered as live in `registryDir` (some may be leftovers of a killed run). */
export function registeredDisks(registryDir: string): DiskRecord[] {
  let names: string[];
  try {
    names = readdirSync(registryDir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const records: DiskRecord[] = [];
  for (const name of names) {
    try {
      records.push(JSON.parse(readFileSync(join(registryDir, name), 'utf8')) as DiskRecord);
    } catch {
      rmSync(join(registryDir, name), { force: true });
    }
  }
  return records;
}
