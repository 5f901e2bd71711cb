/**
 * The recording of an exploration: one live load run (prepare, load until the disk fires, cut:
 * the live cycle's own stages) on a disk that records every write and flush from its start. The
 * prepared image the disk started from is kept beside the recording as its snapshot, so the
 * recording alone rebuilds any state; the image at the cut is not kept (the recording holds it).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { indexRecording, RECORDING_FILE, type Recording } from '../../faults/recording.js';
import { monotonicUs } from '../load/commit-timeline.js';
import type { LoadResult } from '../load/index.js';
import { doublewriteDeviceRanges } from '../pages/doublewrite-device-ranges.js';
import { tablespaceDeviceRanges } from '../pages/tablespace-device-ranges.js';
import type { DeviceRange } from '../pages/device-ranges.js';
import { writesPageCopies } from '../results/doublewrite-mode.js';
import type { Phase, ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import { CleanupStack } from '../cycle/cleanup-stack.js';
import { PhaseTimer } from '../cycle/phase-timer.js';
import { datadirOn } from '../cycle/server-dirs.js';
import { cutPower } from '../cycle/stages/cut.js';
import { loadUntilFired } from '../cycle/stages/load.js';
import { prepare } from '../cycle/stages/prepare.js';
import { rigFailure } from '../errors.js';
import { mountsAtOrBelow } from '../../faults/system.js';
import { DigestWorker, type BlockDigests } from './image-hash.js';

export const SNAPSHOT_FILE = 'snapshot.img';
export const DEFAULT_RECORD_MAX_BYTES = 2 * 1024 * 1024 * 1024;

export interface RecordInput {
  settings: ScenarioSettings;
  seed: number;
  dir: string; // the recording's folder
  cacheRoot: string;
  runtime: ServerRuntime;
  serverVersion: string;
  diskEnvironment?: DiskEnvironment;
  maxBytes?: number;
  signal?: AbortSignal;
  onPhase?: (phase: Phase) => void;
}

export interface RecordedLoad {
  dir: string;
  recording: Recording;
  snapshot: string;
  /** The snapshot's block digests (./image-hash.ts), hashed while the load ran; null if that failed. */
  snapshotBlocks?: Promise<BlockDigests | null>;
  load: LoadResult;
  loadStartUs: number;
  copyRanges: DeviceRange[]; // the doublewrite area on the device, when the server writes copies
  pageRanges: DeviceRange[]; // the tablespaces on the device when the load began
  timings: Partial<Record<Phase, number>>;
}

export async function recordLoad(input: RecordInput): Promise<RecordedLoad> {
  const { settings } = input;
  mkdirSync(input.dir, { recursive: true });
  const timings: Partial<Record<Phase, number>> = {};
  const timer = new PhaseTimer(timings, input.onPhase);
  const cleanup = new CleanupStack();
  const cutDir = join(input.dir, 'disk');
  const path = join(input.dir, RECORDING_FILE);
  const snapshot = join(input.dir, SNAPSHOT_FILE);
  let result: Omit<RecordedLoad, 'recording' | 'timings'> | undefined;
  // every lane's first state would hash the whole image (512 MiB in the quick campaigns) to learn
  // its blocks; the snapshot's are hashed once instead, on a worker, while the load runs
  const hasher = new DigestWorker();
  // interrupted, the recording is no one's: no state was judged from it, --resume records again
  const dropIfInterrupted = () => {
    if (!input.signal?.aborted) return;
    if (mountsAtOrBelow(resolve(input.dir)).length === 0) rmSync(input.dir, { recursive: true, force: true });
    input.signal.throwIfAborted();
  };
  try {
    const record = { path, maxBytes: input.maxBytes ?? DEFAULT_RECORD_MAX_BYTES };
    const live = await timer.time('prepare', () => prepare({ ...input, cutDir, record }, cleanup));
    await execa('cp', ['--sparse=always', live.image, snapshot]);
    const snapshotBlocks: Promise<BlockDigests | null> = hasher.digest(snapshot, []).then((d) => d.clean, () => null).finally(() => hasher.close());
    const copies = settings.server.engine === 'innodb' && writesPageCopies(settings.server.doublewrite) && settings.disk.fs !== 'none';
    const copyRanges = copies ? await doublewriteDeviceRanges(datadirOn(live.disk.target), settings.server.pageSize) : [];
    const pageRanges = settings.disk.fs === 'none' ? [] : await tablespaceDeviceRanges(datadirOn(live.disk.target));
    const loadStartUs = monotonicUs();
    const fired = await timer.time('load', () => loadUntilFired(live, settings, input.seed, cleanup, input.signal));
    const cut = await timer.time('cut', () => cutPower(live, fired, cleanup));
    result = { dir: input.dir, snapshot, load: cut.load, loadStartUs, copyRanges, pageRanges, snapshotBlocks };
  } finally {
    const problems = await cleanup.releaseAll();
    rmSync(cutDir, { recursive: true, force: true });
    if (!result || problems.length || input.signal?.aborted) await hasher.close(); // no state will use them
    if (problems.length) throw rigFailure(`the recording's teardown failed: ${problems.join('; ')}`);
    dropIfInterrupted();
  }
  const recording = indexRecording(path);
  writeFileSync(join(input.dir, 'recording.json'), JSON.stringify(describeRecording(recording, result.loadStartUs, input.seed), null, 1) + '\n');
  return { ...result, recording, timings };
}

export function describeRecording(recording: Recording, loadStartUs: number, seed: number) {
  const writes = recording.events.filter((e) => e.kind === 'write');
  const first = recording.events[0]?.tUs ?? loadStartUs;
  const last = recording.events.at(-1)?.tUs ?? loadStartUs;
  return {
    seed,
    bytes: recording.bytes,
    ended: recording.ended,
    writes: writes.length,
    bytesWritten: writes.reduce((sum, w) => sum + (w.kind === 'write' ? w.length : 0), 0),
    flushes: recording.events.filter((e) => e.kind === 'flush').length,
    spanMs: Math.round((last - first) / 1000),
    loadStartUs,
  };
}
