/**
 * An exploration: record one load run, then judge many crash states from the recording, each
 * exactly like a live cycle (./judge-state.ts). States are picked every barrier, by a seeded
 * sample, or targeted at the scenario's claim (./pick-states.ts, ./state-targets.ts), and judged
 * in recording order on one working image that only moves forward.
 */
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { readRecordedData } from '../../faults/recording.js';
import { badInput } from '../errors.js';
import type { CycleRecord, Expectation, ExplorePick, Phase, RecoveryBounds, ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import { barriersOf, type Barriers } from './barriers.js';
import { exploreRefusal } from './explore-refusal.js';
import { judgeState } from './judge-state.js';
import { pickStates, type PickedState } from './pick-states.js';
import { recordLoad, type RecordedLoad } from './record-load.js';
import { targetClaim, targetScores, type TargetClaim } from './state-targets.js';
import { StateImages } from './state-image.js';

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
  signal?: AbortSignal;
  onPhase?: (phase: Phase) => void;
  onRecorded?: (summary: ExploreRecordingSummary) => void;
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
  timings: Partial<Record<Phase, number>>;
}

export interface ExploreResult {
  recording: ExploreRecordingSummary;
  records: CycleRecord[];
  recordMs: number;
  statesMs: number;
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

export async function runExplore(input: ExploreInput): Promise<ExploreResult> {
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
  const recordMs = Date.now() - started;
  const b = barriersOf(recorded.recording);
  const fd = openSync(recorded.recording.path, 'r');
  const workDir = join(input.recordingDir, 'work');
  try {
    const scores = input.pick === 'targeted' ? scoresFor(input, recorded, b, fd) : null;
    const picked: PickedState[] = pickStates(b.barriers, input.states, input.pick, input.seed, (x) => scores?.get(x.index) ?? 0);
    const summary: ExploreRecordingSummary = {
      writes: b.writes.length,
      flushes: b.flushes,
      barriers: b.barriers.length,
      emptyBarriers: b.empty,
      ended: b.endedBy,
      claim: targetClaim({ expectation: input.expectation, doublewrite: input.settings.server.doublewrite }),
      candidates: scores ? [...scores.values()].filter((s) => s > 0).length : b.barriers.length,
      picked: picked.length,
      timings: recorded.timings,
    };
    input.onRecorded?.(summary);
    mkdirSync(workDir, { recursive: true });
    const images = await StateImages.create(workDir, recorded.snapshot, b.writes, fd);
    const judged = new Map<string, CycleRecord>();
    const records: CycleRecord[] = [];
    const statesStarted = Date.now();
    for (const [i, state] of picked.entries()) {
      input.signal?.throwIfAborted();
      const id = `${input.runId}-s${i + 1}`;
      const dir = input.stateDir(id);
      const record = await judgeState({
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
        judged,
        ...(input.diskEnvironment ? { diskEnvironment: input.diskEnvironment } : {}),
        ...(input.recoveryBounds ? { recoveryBounds: input.recoveryBounds } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      records.push(record);
      await input.onState?.(record, i + 1, picked.length);
    }
    return { recording: summary, records, recordMs, statesMs: Date.now() - statesStarted };
  } finally {
    closeSync(fd);
    rmSync(workDir, { recursive: true, force: true });
  }
}
