/**
 * An exploration: record one load run, then judge many crash states from the recording, each
 * exactly like a live cycle (./judge-state.ts). States are picked every barrier, by a seeded
 * sample, or targeted at the scenario's claim (./pick-states.ts, ./state-targets.ts), and judged
 * in lanes (./state-lanes.ts): each lane takes the next state in recording order on its own clean
 * image, which only moves forward, more lanes open while the cores have room (./lane-growth.ts),
 * and the lanes' results are handed on in state order (./in-order.ts) with each shared crash
 * image judged by its first state (./judged-images.ts). The images live in a
 * clone store (faults/clone-store.ts) where the machine can clone files: a state's image is a
 * clone of its lane's clean image, judged on a plain loop disk. Elsewhere each lane keeps a
 * working image judged on a power-fail disk and put back after each state.
 */
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { CloneStore } from '../../faults/clone-store.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { readRecordedData } from '../../faults/recording.js';
import { mountsAtOrBelow } from '../../faults/system.js';
import { badInput } from '../errors.js';
import type { CycleRecord, Expectation, ExplorePick, Phase, RecoveryBounds, ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import { barriersOf, type Barriers } from './barriers.js';
import { exploreRefusal } from './explore-refusal.js';
import { judgeState } from './judge-state.js';
import { pickStates, type PickedState } from './pick-states.js';
import { recordLoad, type RecordedLoad } from './record-load.js';
import { targetClaim, targetScores, type TargetClaim } from './state-targets.js';
import { stateKey, StateImages } from './state-image.js';
import { JudgedImages, type SameImage } from './judged-images.js';
import { InOrder } from './in-order.js';
import { Turns } from './turns.js';
import { LaneGrowth, mostLanes, type LaneOpening } from './lane-growth.js';
import { judgeInLanes, type LanesRun } from './state-lanes.js';
import { makePlan } from '../../faults/crash-plan.js';
import { newScanMemo } from '../cycle/scan-memo.js';

export interface ExploreInput {
  runId: string; // the cycle that records the load run; state ids are <runId>-s<n>
  settings: ScenarioSettings;
  seed: number;
  expectation: Expectation;
  states: number;
  pick: ExplorePick;
  recordingDir: string;
  stateDir: (id: string) => string;
  reproPrefix: string; // a state's repro command names <reproPrefix>/<id>
  cacheRoot: string;
  runtime: ServerRuntime;
  serverVersion: string;
  diskEnvironment?: DiskEnvironment;
  recoveryBounds?: Partial<RecoveryBounds>;
  recordMaxBytes?: number;
  /** States judged at once, each on its own pair of images; `rig campaign --lanes`. Default:
   * defaultLanes() to start, more while the cores have room, up to mostLanes()
   * (./lane-growth.ts). */
  lanes?: number;
  /** When lanes open by themselves (default: a LaneGrowth watching this machine's cores). */
  laneGrowth?: (start: { lanes: number; most: number }) => LaneGrowth;
  /** Scans remember page verdicts and the redo log's parse from state to state (default true). */
  scanMemo?: boolean;
  /** Each state's image a clone in a clone store, judged on a loop disk (default true where the
   * machine can clone files); false: working images put back, judged on power-fail disks. */
  clones?: boolean;
  /** Said once when the exploration cannot do what it was asked as asked (no clone store here). */
  onWarning?: (line: string) => void;
  signal?: AbortSignal;
  onPhase?: (phase: Phase) => void;
  onRecorded?: (summary: ExploreRecordingSummary) => void;
  /** Another lane opened. */
  onLanes?: (opening: LaneOpening) => void;
  onState?: (record: CycleRecord, n: number, of: number) => Promise<void> | void;
}

export interface ExploreRecordingSummary {
  writes: number;
  flushes: number;
  barriers: number; // with writes pending
  emptyBarriers: number;
  ended: string;
  claim: TargetClaim;
  candidates: number; // barriers a targeted pick could use (score > 0); every barrier otherwise
  picked: number;
  lanes: number; // states judged at once at the start
  mostLanes: number; // more lanes open, up to this, while the cores have room (./lane-growth.ts)
  timings: Partial<Record<Phase, number>>;
}

export interface ExploreResult {
  recording: ExploreRecordingSummary;
  records: CycleRecord[];
  recordMs: number;
  statesMs: number;
  lanes: number; // the most states judged at once
  lanesOpened: LaneOpening[]; // lanes opened after the start: when, and how busy the cores were
  peakLaneBytes: number; // the most a lane's images took on disk (allocated bytes) between states
  clones: boolean; // each state's image was a clone in a clone store, judged on a loop disk
}

function scoresFor(input: ExploreInput, recorded: RecordedLoad, b: Barriers, fd: number): Map<number, number> {
  return targetScores(b, {
    expectation: input.expectation,
    doublewrite: input.settings.server.doublewrite,
    pageSize: input.settings.server.pageSize,
    atomicUnit: input.settings.disk.atomicUnit,
    copyRanges: recorded.copyRanges,
    pageRanges: recorded.pageRanges,
    readData: (w) => readRecordedData(fd, w),
  });
}

/** An exploration's recording (judged by judgeRecorded), and how long it took. */
export async function recordExploration(input: ExploreInput): Promise<{ recorded: RecordedLoad; ms: number }> {
  const refusal = exploreRefusal(input.settings);
  if (refusal) throw badInput(refusal.message);
  const started = Date.now();
  const recorded = await recordLoad({
    settings: input.settings,
    seed: input.seed,
    dir: input.recordingDir,
    cacheRoot: input.cacheRoot,
    runtime: input.runtime,
    serverVersion: input.serverVersion,
    ...(input.diskEnvironment ? { diskEnvironment: input.diskEnvironment } : {}),
    ...(input.recordMaxBytes ? { maxBytes: input.recordMaxBytes } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onPhase ? { onPhase: input.onPhase } : {}),
  });
  return { recorded, ms: Date.now() - started };
}

/**
 * The states of a recording made by recordLoad, picked and judged; the same recording judged again
 * (with other lanes, or no scan memo) picks the same states.
 */
export async function judgeRecorded(input: ExploreInput, recorded: RecordedLoad, recordMs: number): Promise<ExploreResult> {
  const b = barriersOf(recorded.recording);
  const fd = openSync(recorded.recording.path, 'r');
  const workDir = join(input.recordingDir, 'work');
  try {
    const scores = input.pick === 'targeted' ? scoresFor(input, recorded, b, fd) : null;
    const picked: PickedState[] = pickStates(b.barriers, input.states, input.pick, input.seed, (x) => scores?.get(x.index) ?? 0);
    const lanes = Math.max(1, Math.min(input.lanes ?? defaultLanes(), picked.length));
    // lanes open by themselves unless told how many, and only where a lane starts in milliseconds:
    // its clean image a clone in the clone store
    const growing = input.lanes === undefined && input.clones !== false && lanes < picked.length;
    const most = growing ? Math.max(lanes, Math.min(mostLanes(), picked.length)) : lanes;
    const summary: ExploreRecordingSummary = {
      writes: b.writes.length,
      flushes: b.flushes,
      barriers: b.barriers.length,
      emptyBarriers: b.empty,
      ended: b.endedBy,
      claim: targetClaim({ expectation: input.expectation, doublewrite: input.settings.server.doublewrite }),
      candidates: scores ? [...scores.values()].filter((s) => s > 0).length : b.barriers.length,
      picked: picked.length,
      lanes,
      mostLanes: most,
      timings: recorded.timings,
    };
    input.onRecorded?.(summary);
    const { atomicUnit, fates } = input.settings.disk;
    const plans = picked.map((s) => makePlan(s.barrier.pending, s.planSeed, atomicUnit, fates));
    const sameImages = new JudgedImages(picked.map((s, i) => stateKey(s.barrier.durableCount, plans[i]!)));
    const memo = input.scanMemo === false ? undefined : newScanMemo();
    const turns = most > 1 ? new Turns() : undefined; // the lanes' turns at the rig's own thread
    const inOrder = new InOrder<CycleRecord>(async (record, i) => input.onState?.(record, i + 1, picked.length));
    const judgeOne = (i: number, state: PickedState, images: StateImages, sameImage: SameImage): Promise<CycleRecord> => {
      const id = `${input.runId}-s${i + 1}`;
      const dir = input.stateDir(id);
      return judgeState({
        id,
        number: i + 1,
        state,
        pick: input.pick,
        run: input.runId,
        runSeed: input.seed,
        of: picked.length,
        repro: `rig repro ${join(input.reproPrefix, id)}`,
        barriers: b.barriers.length,
        recordingRel: relative(dir, input.recordingDir),
        settings: input.settings,
        expectation: input.expectation,
        dir,
        images,
        stats: { writes: b.writes, pageSize: input.settings.server.pageSize, atomicUnit: input.settings.disk.atomicUnit },
        load: recorded.load,
        loadStartUs: recorded.loadStartUs,
        runtime: input.runtime,
        serverVersion: input.serverVersion,
        plan: plans[i]!,
        sameImage,
        ...(memo ? { memo } : {}),
        ...(turns ? { turns } : {}),
        ...(input.diskEnvironment ? { diskEnvironment: input.diskEnvironment } : {}),
        ...(input.recoveryBounds ? { recoveryBounds: input.recoveryBounds } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
    };
    const statesStarted = Date.now();
    const snapshotBlocks = (await recorded.snapshotBlocks) ?? null; // hashed while the load ran
    let peakLaneBytes = 0;
    const store = input.clones === false ? null : await openStore(join(workDir, 'store'), input, most);
    const growth = store && growing ? (input.laneGrowth?.({ lanes, most }) ?? new LaneGrowth({ lanes, most })) : null;
    let run: LanesRun;
    try {
      run = await judgeInLanes<StateImages>({
        states: picked.length,
        lanes,
        growth,
        open: async (lane) => {
          const laneDir = join(store?.root ?? workDir, `lane-${lane + 1}`);
          mkdirSync(laneDir, { recursive: true });
          return StateImages.create(laneDir, recorded.snapshot, b.writes, fd, { cleanCopy: true, ...(store ? { store } : {}), ...(snapshotBlocks ? { snapshotBlocks } : {}) });
        },
        judge: async (i, images) => {
          input.signal?.throwIfAborted();
          inOrder.put(i, await judgeOne(i, picked[i]!, images, sameImages.for(i)));
          // in a clone store the lanes' images share its blocks: its peak use, a lane's share of it
          peakLaneBytes = Math.max(peakLaneBytes, store ? images.peakStoreBytes / (growth?.lanes ?? lanes) : images.allocatedBytes());
        },
        close: (images) => images.close(),
        // a later state of the same image judges it itself
        dropped: (i) => sameImages.settle(i, null),
        stopped: () => inOrder.failed,
        onOpened: (opening) => input.onLanes?.(opening),
      });
    } finally {
      await store?.close();
    }
    const records = await inOrder.finish();
    return { recording: summary, records, recordMs, statesMs: Date.now() - statesStarted, lanes: run.most, lanesOpened: run.opened, peakLaneBytes, clones: store !== null };
  } finally {
    closeSync(fd);
    // a store that did not come down stays mounted for `rig cleanup`; nothing is removed through it
    if (!mountsAtOrBelow(resolve(workDir)).length) rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * The clone store for the states' images: room for each lane's clean image and its state in flight
 * (sparse: it takes on disk what is written). Null, said once, where this machine cannot clone files.
 */
async function openStore(dir: string, input: ExploreInput, lanes: number): Promise<CloneStore | null> {
  const room = 2 * lanes * input.settings.disk.sizeBytes + 1024 * 1024 * 1024;
  try {
    return await CloneStore.open(dir, room, { ...(input.diskEnvironment ? { environment: input.diskEnvironment } : {}), ...(input.signal ? { signal: input.signal } : {}) });
  } catch (error) {
    input.signal?.throwIfAborted();
    input.onWarning?.(`explore: no clone store (${(error as Error).message}); each state is judged on a power-fail disk and put back, which is slower`);
    return null;
  }
}

/** Two lanes where the machine has two cores or more: one state's scans run while another's server recovers. */
export function defaultLanes(): number {
  return availableParallelism() >= 2 ? 2 : 1;
}
