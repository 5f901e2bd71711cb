/**
 * One crash cycle, top to bottom: prepare, load until the disk fires, cut, materialize the crash
 * image, scan it, recover on it, scan again, judge. Each stage lives in its own module under
 * stages/; this function only sequences them, times them, and guarantees teardown. Any failure of the rig itself becomes a
 * `rig-error` record, never a verdict about the database.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contradicts } from '../results/expectation.js';
import { DEFAULT_RECOVERY_BOUNDS } from '../defaults.js';
import type { CycleRecord, Expectation, Phase, RecoveryBounds, ScenarioSettings } from '../results/types.js';
import { LOAD_FILE, writeLoadFile } from '../load/load-file.js';
import { innodbArgs } from '../runtime/server-args.js';
import { serverIdentity } from '../results/server-identity.js';
import type { ServerRuntime } from '../runtime/types.js';
import { diskCut } from '../../faults/helper-status.js';
import { checkAborted } from '../interrupts.js';
import { CleanupStack } from './cleanup-stack.js';
import { emptyCycleRecord, markRigError } from './cycle-record.js';
import { PhaseTimer } from './phase-timer.js';
import { cutPower } from './stages/cut.js';
import { judgeRecovery } from './stages/judge.js';
import { loadUntilFired } from './stages/load.js';
import { materialize } from './stages/materialize.js';
import { prepare } from './stages/prepare.js';
import { recoverServer } from './stages/recover.js';
import { scanAfterRecovery } from './stages/scan-after.js';
import { recordScan, scanCrashImage } from './stages/scan.js';
import { CRASH_IMAGE_FILE } from '../../faults/crash-image.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';

export interface CycleInput {
  id: string;
  settings: ScenarioSettings;
  cycle: number;
  seed: number;
  expectation: Expectation;
  dir: string; // this cycle's folder: evidence, cycle.json
  cacheRoot: string; // prepared images
  diskEnvironment?: DiskEnvironment; // the disk's helper, registry, FUSE device (default: the environment's)
  runtime: ServerRuntime;
  serverVersion: string;
  repro: string; // the command that rebuilds this crash image
  recoveryBounds?: Partial<RecoveryBounds>; // defaults: DEFAULT_RECOVERY_BOUNDS
  signal?: AbortSignal;
  onPhase?: (phase: Phase) => void;
}

export async function runCycle(input: CycleInput): Promise<CycleRecord> {
  const { settings, signal } = input;
  const record = emptyCycleRecord(input.id, settings, input.cycle, input.seed, input.expectation);
  record.repro = input.repro;
  const timer = new PhaseTimer(record.timings, input.onPhase);
  const cleanup = new CleanupStack();
  mkdirSync(input.dir, { recursive: true });
  const cutDir = join(input.dir, 'cut');
  let hashing: Promise<string> | null = null; // the crash image's sha256, taken beside the later stages
  try {
    const server = serverIdentity(input.serverVersion);
    record.server = { version: input.serverVersion, innodb: innodbArgs(settings.server, server) };
    const live = await timer.time('prepare', () => prepare({ ...input, cutDir }, cleanup));
    const fired = await timer.time('load', () => loadUntilFired(live, settings, input.seed, cleanup, signal));
    const cut = await timer.time('cut', () => cutPower(live, fired, cleanup));
    record.cut = diskCut(cut.status, cut.atMs);
    record.throughput = cut.load.throughput;
    record.ledger = { checked: false, acked: cut.load.ackedCount, missing: 0 };
    writeLoadFile(join(cutDir, LOAD_FILE), cut.load);
    const { crash, journal, order } = await timer.time('materialize', () => materialize(cutDir, input.seed, settings.disk.atomicUnit, cut.status.cutPending, settings.disk.fates));
    hashing = crash.sha256;
    record.pendingWrites = crash.plan.writes;
    const scanned = await timer.time('scanBefore', () =>
      scanCrashImage(settings, crash.path, journal, crash.plan, order, join(input.dir, 'recover'), cleanup, server.flavor, input.diskEnvironment),
    );
    recordScan(record, scanned, settings.server.pageSize);
    const bounds = { ...DEFAULT_RECOVERY_BOUNDS, ...input.recoveryBounds };
    const recovery = await timer.time('recover', () => recoverServer(settings, input.runtime, scanned, cut.load, cleanup, bounds, signal));
    const after = await timer.time('scanAfter', () => scanAfterRecovery(scanned.datadir, recovery.run, scanned.torn));
    await timer.time('judge', () => judgeRecovery(record, input.dir, scanned, recovery, after));
    record.crashImageSha256 = await hashing;
  } catch (error) {
    markRigError(record, error);
  } finally {
    // a cycle that failed still names its crash image when it was hashed; the cut's image is kept till then
    if (hashing && record.crashImageSha256 === null) record.crashImageSha256 = await hashing.catch(() => null);
    const problems = await cleanup.releaseAll();
    if (problems.length && record.verdict !== 'rig-error') markRigError(record, problems);
    rmSync(join(cutDir, CRASH_IMAGE_FILE), { force: true }); // rebuilt from cut/ on demand
  }
  if (signal?.aborted) {
    // interrupted: no record claims a verdict (a stopped load reads as a cut that never came), and
    // the unfinished cut's evidence goes with it
    for (const made of [cutDir, join(input.dir, 'recover')]) rmSync(made, { recursive: true, force: true });
    checkAborted(signal);
  }
  const torn = record.tornPagesBefore.length;
  record.expectationHeld = record.verdict !== 'rig-error' && !contradicts(input.expectation, record.verdict, torn);
  writeFileSync(join(input.dir, 'cycle.json'), JSON.stringify(record, null, 1) + '\n');
  return record;
}
