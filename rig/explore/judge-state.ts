/**
 * One crash state of a recording, judged exactly as a live cycle's crash image is (the scan,
 * recover, scan-after and judge stages of rig/cycle/run-cycle.ts), into the same record, with the
 * barrier it came from. The ledger is held to the commits of the barrier's moment. The state's
 * image is a clone of the clean copy in a clone store, served where it is and deleted once judged;
 * or, where files cannot be cloned, it is built in place in the working image (./state-image.ts)
 * and put back afterwards from the clean copy: the pending writes' ranges and every range the
 * recovery wrote, which the scan disk records.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashPlan } from '../../faults/crash-plan.js';
import { indexRecording, RECORDING_FILE } from '../../faults/recording.js';
import { DEFAULT_RECOVERY_BOUNDS } from '../defaults.js';
import { rigFailure } from '../errors.js';
import type { LoadResult } from '../load/index.js';
import { LOAD_FILE, writeLoadFile } from '../load/load-file.js';
import type { DeviceRange } from '../pages/device-ranges.js';
import { contradicts } from '../results/expectation.js';
import type { CycleRecord, Expectation, ExplorePick, RecoveryBounds, ScenarioSettings } from '../results/types.js';
import { innodbArgs } from '../runtime/server-args.js';
import { serverIdentity } from '../results/server-identity.js';
import type { ServerRuntime } from '../runtime/types.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { CleanupStack } from '../cycle/cleanup-stack.js';
import { emptyCycleRecord, markRigError } from '../cycle/cycle-record.js';
import { PhaseTimer } from '../cycle/phase-timer.js';
import { judgeRecovery } from '../cycle/stages/judge.js';
import { recoverServer } from '../cycle/stages/recover.js';
import { scanAfterRecovery } from '../cycle/stages/scan-after.js';
import { recordScan, scanCrashImage } from '../cycle/stages/scan.js';
import type { PickedState } from './pick-states.js';
import { statsAt, type RecordingStats } from './recording-stats.js';
import type { SameImage } from './judged-images.js';
import { landedWrites } from '../../faults/materialize.js';
import type { StateImages } from './state-image.js';
import { DIGEST_BLOCK } from '../results/crash-image-digest.js';
import type { ScanMemo } from '../cycle/scan-memo.js';
import type { Turns } from './turns.js';

const RECOVERY_RECORD_MAX = 1024 * 1024 * 1024; // past it the working image is copied afresh

export interface StateInput {
  id: string;
  number: number; // 1-based, in the order judged
  state: PickedState;
  pick: ExplorePick;
  run: string;
  runSeed: number;
  of: number;
  repro: string;
  barriers: number;
  recordingRel: string; // the recording's folder, relative to the state's folder
  settings: ScenarioSettings;
  expectation: Expectation;
  dir: string;
  images: StateImages;
  stats: RecordingStats;
  load: LoadResult;
  loadStartUs: number; // when the load began, on the recording's clock
  runtime: ServerRuntime;
  serverVersion: string;
  diskEnvironment?: DiskEnvironment;
  recoveryBounds?: Partial<RecoveryBounds>;
  plan: CrashPlan; // the state's plan, drawn from its barrier's pending writes and its seed
  sameImage: SameImage; // the earlier state that judged the same crash image (./judged-images.ts)
  memo?: ScanMemo; // what the scans of earlier states found
  /** The lanes' turns at the rig's own thread (./turns.ts): held while the image is built and scanned. */
  turns?: Turns;
  signal?: AbortSignal;
}

/** The load as it stood at the barrier: the ledger's least and most for each client. */
export function loadAt(load: LoadResult, tUs: number): LoadResult {
  if (!load.timeline) return load;
  const at = load.timeline.at(tUs);
  return { ...load, acked: at.acked, ackedCount: at.ackedCount, begun: at.begun };
}

/** What a duplicate state takes from the state that judged the same crash image. */
function copyJudgement(record: CycleRecord, from: CycleRecord): void {
  for (const key of ['verdict', 'tornPagesBefore', 'pagesTouched', 'pageZeroWrites', 'reconciliation', 'checkpointLsn', 'redoFileOps', 'writeOrder', 'pagesAfter', 'attribution', 'exercised', 'ledger', 'checkTable', 'invariants', 'serverStarted', 'recovery', 'errorLog'] as const) {
    (record as unknown as Record<string, unknown>)[key] = from[key];
  }
  record.reason = `the same crash image as ${from.id}, judged once: ${from.reason}`;
}

export async function judgeState(input: StateInput): Promise<CycleRecord> {
  const { settings, state, images } = input;
  const { barrier } = state;
  const record = emptyCycleRecord(input.id, settings, input.number, state.planSeed, input.expectation);
  record.repro = input.repro;
  record.explore = {
    recording: input.recordingRel,
    barrier: barrier.index,
    barrierKind: barrier.kind,
    barriers: input.barriers,
    tUs: barrier.tUs,
    durableWrites: barrier.durableCount,
    pick: input.pick,
    run: input.run,
    runSeed: input.runSeed,
    of: input.of,
    ...(state.score !== undefined ? { score: state.score } : {}),
  };
  const timer = new PhaseTimer(record.timings);
  const cleanup = new CleanupStack();
  const recoverDir = join(input.dir, 'recover');
  const touched: DeviceRange[] = barrier.pending.map((w) => ({ offset: w.offset, length: w.length }));
  let hashing: Promise<string> | null = null;
  let judgedBy: CycleRecord | null = null;
  let endTurn = await takeTurn(input);
  try {
    mkdirSync(input.dir, { recursive: true });
    const server = serverIdentity(input.serverVersion);
    record.server = { version: input.serverVersion, innodb: innodbArgs(settings.server, server) };
    const { plan } = input;
    writeFileSync(join(input.dir, 'plan.json'), JSON.stringify(plan, null, 1) + '\n');
    const journal = await timer.time('materialize', () => {
      images.advance(barrier.durableCount);
      return images.materialize(barrier.pending, plan);
    });
    const at = loadAt(input.load, barrier.tUs);
    writeLoadFile(join(input.dir, LOAD_FILE), at); // what a rebuild of this state checks (rig shrink)
    record.cut = {
      reason: `explore (${barrier.kind} ${barrier.index})`,
      atMs: Math.max(0, Math.round((barrier.tUs - input.loadStartUs) / 1000)),
      pending: barrier.pending.length,
      pendingPageWrites: barrier.pending.filter((w) => w.length >= settings.server.pageSize).length,
      stats: statsAt(input.stats, barrier),
    };
    record.throughput = input.load.throughput;
    record.ledger = { checked: false, acked: at.ackedCount, missing: 0 };
    record.pendingWrites = plan.writes;
    // the state's crash image is the clean image with what the plan lands laid over it
    hashing = images.digestWith(landedWrites(journal, plan));
    // a clone is served in place and deleted afterwards; a working image has the recovery's writes recorded, to undo them
    const serve = images.clones ? {} : { record: { path: join(recoverDir, RECORDING_FILE), maxBytes: RECOVERY_RECORD_MAX } };
    const scanned = await timer.time('scanBefore', () =>
      scanCrashImage(settings, images.work, journal, plan, null, recoverDir, cleanup, server.flavor, input.diskEnvironment, { ...serve, ...(input.memo ? { memo: input.memo } : {}) }),
    );
    recordScan(record, scanned, settings.server.pageSize);
    endTurn(); // before waiting on another state, which may wait for a turn
    const first = await input.sameImage.earlier;
    if (first) {
      record.explore.duplicateOf = first.id;
      copyJudgement(record, first);
      judgedBy = first;
    } else {
      const bounds = { ...DEFAULT_RECOVERY_BOUNDS, ...input.recoveryBounds };
      const recovery = await timer.time('recover', () => recoverServer(settings, input.runtime, scanned, at, cleanup, bounds, input.signal));
      endTurn = await takeTurn(input);
      const after = await timer.time('scanAfter', () => scanAfterRecovery(scanned.datadir, recovery.run, scanned.torn, input.memo?.verdicts));
      await timer.time('judge', () => judgeRecovery(record, input.dir, scanned, recovery, after));
      endTurn();
      if (record.verdict !== 'rig-error') judgedBy = record;
    }
    record.crashImageBlocksSha256 = await hashing;
    record.crashImageDigestBlock = DIGEST_BLOCK;
  } catch (error) {
    markRigError(record, error);
  } finally {
    endTurn();
    await hashing?.catch(() => undefined); // it reads the clean image, which the next state moves on
    const problems = await cleanup.releaseAll();
    if (problems.length && record.verdict !== 'rig-error') markRigError(record, problems);
    // after a rig error the recovery's record may not be whole (a helper killed before it wrote it)
    try {
      if (images.clones) images.discard();
      else await putBack(images, recoverDir, touched, record.verdict !== 'rig-error');
    } finally {
      input.sameImage.settle(judgedBy); // a later state of the same image waits for this
    }
  }
  const torn = record.tornPagesBefore.length;
  record.expectationHeld = record.verdict !== 'rig-error' && !contradicts(input.expectation, record.verdict, torn);
  writeFileSync(join(input.dir, 'cycle.json'), JSON.stringify(record, null, 1) + '\n');
  return record;
}

/** The state's turn at the rig's own thread, or none to wait for; the function returned ends it. */
async function takeTurn(input: StateInput): Promise<() => void> {
  const end = input.turns ? await input.turns.take() : () => undefined;
  if (input.signal?.aborted) {
    end();
    input.signal.throwIfAborted();
  }
  return end;
}

/**
 * The working image back where the state found it: renamed back from the scan disk's folder, then
 * every range the state and its recovery wrote copied from the clean image (or the whole image,
 * when the recovery's record is not whole).
 */
async function putBack(images: StateImages, recoverDir: string, touched: DeviceRange[], trustRecord: boolean): Promise<void> {
  const adopted = join(recoverDir, 'image.img');
  if (existsSync(adopted)) renameSync(adopted, images.work);
  if (!existsSync(images.work)) throw rigFailure(`the working image ${images.work} is gone`);
  const recorded = join(recoverDir, RECORDING_FILE);
  let whole = false;
  if (existsSync(recorded)) {
    try {
      const recording = indexRecording(recorded);
      whole = trustRecord && recording.ended !== 'truncated';
      for (const e of recording.events) if (e.kind === 'write') touched.push({ offset: e.offset, length: e.length });
    } catch {
      whole = false;
    }
    rmSync(recorded, { force: true });
  }
  if (whole) images.restore(touched);
  else await images.resetWork();
}
