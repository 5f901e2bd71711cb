/**
 * Runs a campaign's cycles (one shard of them, or what a resumed run has left) one after the
 * other, each in DIR/cycles/<id>/, save that the next explore cycle records its load while the one
 * before it is judged (./recording-ahead.ts). After every cycle the evidence is settled under the cap and
 * DIR/results.json and DIR/cycles.jsonl are rewritten atomically, so an interrupted run always leaves valid results;
 * at the end come junit.xml and the HTML report. A cycle interrupted by a signal is not recorded:
 * its own teardown has run, and the abort is rethrown.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { runCycle } from '../cycle/run-cycle.js';
import { defaultLanes, judgeRecorded, recordExploration, type ExploreInput, type ExploreRecordingSummary } from '../explore/run-explore.js';
import { cycleToRecordAhead, RecordingAhead } from './recording-ahead.js';
import type { LaneOpening } from '../explore/lane-growth.js';
import { checkAborted } from '../interrupts.js';
import { measurePair } from '../perf/measure-pair.js';
import type { PerfPairRecord } from '../results/perf-pair-record.js';
import { perfPairLine } from '../perf/perf-summary.js';
import { countByScenario } from './shard.js';
import type { ScenarioPlan } from '../results/summarize.js';
import type { CampaignResults, CycleRecord, ScenarioSettings } from '../results/types.js';
import { summaryOf, writeSummaryFile } from '../results/results-file.js';
import { RunningRecordsFile } from '../results/running-records.js';
import { type ReportRenderer, writeResultsFolder } from '../results/write-results.js';
import type { ServerRuntime } from '../runtime/types.js';
import { assembleResults, type RunFacts } from './assemble-results.js';
import { EvidenceKeeper } from './evidence.js';
import type { EvidencePolicy } from './evidence-policy.js';
import type { CampaignProgress } from './progress.js';
import type { Campaign, PlannedCycle } from './types.js';

export interface ScenarioRuntime {
  runtime: ServerRuntime;
  serverVersion: string; // "mariadbd 10.11.14-MariaDB": part of the prepared image's cache key
}

export interface CampaignRunInput {
  campaign: Campaign;
  cycles: PlannedCycle[]; // this run's share, in order
  finished: CycleRecord[]; // recorded by an earlier, interrupted run (--resume)
  finishedPerf?: PerfPairRecord[]; // the same, of mode: perf scenarios
  dir: string; // absolute
  dirLabel: string; // DIR as the user wrote it, for the repro commands
  facts: RunFacts;
  evidence: EvidencePolicy;
  runtimeFor: (scenario: string) => ScenarioRuntime;
  cacheRoot: string;
  diskEnvironment?: DiskEnvironment;
  progress: CampaignProgress;
  renderReport?: ReportRenderer;
  /** Explore cycles: states judged at once (when not given: rig/explore/run-explore.ts
   * defaultLanes() to start, more while the cores have room). */
  lanes?: number;
  signal: AbortSignal;
}

export interface CampaignRun {
  results: CampaignResults;
  report: string | null;
}

export async function runCampaign(input: CampaignRunInput): Promise<CampaignRun> {
  const { dir, cycles, progress, signal } = input;
  const since = new Date().toISOString();
  const plans = scenarioPlans(input.campaign, cycles);
  const records = finishedByCycle(input.finished);
  const keeper = new EvidenceKeeper(dir, input.evidence, (line) => progress.warn(line));
  for (const list of records.values()) for (const record of list) keeper.adopt(record);
  let ran = 0;
  let judged = [...records.values()].reduce((sum, list) => sum + list.length, 0);
  const pairs = new Map((input.finishedPerf ?? []).map((p) => [p.id, p]));
  const inOrder = () => cycles.flatMap((c) => records.get(c.id) ?? []);
  const perfInOrder = () => (hasPerf(input.campaign) ? cycles.flatMap((c) => pairs.get(c.id) ?? []) : undefined);
  const recordsFile = new RunningRecordsFile(dir);
  const save = async () => {
    const results = assembleResults(input.facts, plans, inOrder(), null, { cycles: ran, since }, perfInOrder());
    await recordsFile.save(results.cycles); // the records first: the summary never counts more than the file holds
    await writeSummaryFile(dir, summaryOf(results));
  };
  mkdirSync(join(dir, 'cycles'), { recursive: true });
  await save();
  const perfRoot = hasPerf(input.campaign) ? mkdtempSync(join(tmpdir(), 'rig-perf-')) : null;
  const ahead: { recording: RecordingAhead | null } = { recording: null }; // set in a closure below
  const explores = (c: PlannedCycle) => input.campaign.scenarios.some((s) => s.settings.name === c.scenario && s.settings.explore !== undefined);
  try {
    for (const planned of cycles) {
      if (records.has(planned.id) || pairs.has(planned.id)) continue;
      checkAborted(signal);
      const scenario = input.campaign.scenarios.find((s) => s.settings.name === planned.scenario)!;
      if (scenario.settings.perf) {
        const pair = await perfOne(input, planned, scenario.settings, perfRoot!);
        checkAborted(signal); // interrupted mid-pair: its runs were taken down; it is not recorded
        pairs.set(planned.id, pair);
        ran += 1;
        await save();
        continue;
      }
      const list: CycleRecord[] = [];
      const settle = async (record: CycleRecord): Promise<void> => {
        keeper.settle(record, cycleDir(dir, record.id));
        list.push(record);
        records.set(planned.id, list);
        ran += 1;
        judged += 1;
        await save();
      };
      if (scenario.settings.explore) {
        const own = ahead.recording?.cycle === planned ? ahead.recording : null;
        ahead.recording = null;
        // the next explore cycle records while this one's states are judged (./recording-ahead.ts)
        const recordNext = () => {
          const next = recordsAhead(input) ? cycleToRecordAhead(cycles, planned, (c) => records.has(c.id) || pairs.has(c.id), explores) : null;
          if (next) ahead.recording = new RecordingAhead(next, recordingDir(dir, next), (s) => recordCycle(exploreInput(input, next, s)), signal);
        };
        await exploreOne(input, planned, own, recordNext, () => judged + 1, settle);
        checkAborted(signal); // interrupted mid-exploration: a resumed run explores this cycle again
        keeper.settleRecording(recordingDir(dir, planned), list.map((record) => ({ record, dir: cycleDir(dir, record.id) })));
        await save();
      } else {
        const record = await runOne(input, planned, judged + 1);
        checkAborted(signal); // interrupted mid-cycle: its teardown ran; it is not recorded
        await settle(record);
      }
    }
  } finally {
    await ahead.recording?.stop(); // its cycle was not reached: interrupted, or failed before it
    if (perfRoot) rmSync(perfRoot, { recursive: true, force: true });
  }
  const results = assembleResults(input.facts, plans, inOrder(), new Date().toISOString(), { cycles: ran, since }, perfInOrder());
  const written = await writeResultsFolder(dir, results, input.renderReport);
  return { results, report: written.report };
}

async function runOne(input: CampaignRunInput, planned: PlannedCycle, n: number): Promise<CycleRecord> {
  const scenario = input.campaign.scenarios.find((s) => s.settings.name === planned.scenario)!;
  const dir = cycleDir(input.dir, planned.id);
  rmSync(dir, { recursive: true, force: true }); // what an interrupted run of this cycle left
  const { runtime, serverVersion } = input.runtimeFor(planned.scenario);
  input.progress.cycleStarted(n, planned);
  const started = Date.now();
  const record = await runCycle({
    id: planned.id,
    settings: scenario.settings,
    cycle: planned.cycle,
    seed: planned.seed,
    expectation: scenario.settings.expect,
    dir,
    cacheRoot: input.cacheRoot,
    diskEnvironment: input.diskEnvironment,
    runtime,
    serverVersion,
    repro: `rig repro ${join(input.dirLabel, 'cycles', planned.id)}`,
    signal: input.signal,
    onPhase: (phase) => input.progress.phase(phase),
  });
  if (!input.signal.aborted) input.progress.cycleFinished(n, record, (Date.now() - started) / 1000);
  return record;
}

/**
 * An explore cycle: its recording (made now, or ahead of its turn while the cycle before it was
 * judged), then each state judged is settled and saved as it finishes, like a live cycle. Once the
 * recording is in hand, `recordNext` starts the next cycle's. The recording stays in
 * DIR/recordings/<cycle>/: every state's repro needs it.
 */
async function exploreOne(
  input: CampaignRunInput,
  planned: PlannedCycle,
  ahead: RecordingAhead | null,
  recordNext: () => void,
  next: () => number,
  settle: (record: CycleRecord) => Promise<void>,
): Promise<void> {
  input.progress.cycleStarted(next(), planned);
  const started = Date.now();
  let first = true; // the first state's time includes the recording, or the wait for it
  const explore: ExploreInput = {
    ...exploreInput(input, planned, input.signal),
    onPhase: (phase) => input.progress.phase(phase),
    onWarning: (line) => input.progress.warn(line),
    onRecorded: (r) => input.progress.note(recordedLine(planned.id, r, ahead !== null)),
    onLanes: (o) => input.progress.note(laneLine(planned.id, o)),
    onState: async (record) => {
      if (input.signal.aborted) return; // interrupted mid-state: its teardown ran; it is not recorded
      // states judged in lanes are handed on in order, several at once: each shows its own time
      const ownMs = Object.values(record.timings).reduce((sum, ms) => sum + (ms ?? 0), 0);
      input.progress.cycleFinished(next(), record, (first ? Date.now() - started : ownMs) / 1000);
      first = false;
      await settle(record);
    },
  };
  const { recorded, ms } = await (ahead ? ahead.recorded : recordCycle(explore));
  recordNext();
  await judgeRecorded(explore, recorded, ms);
}

/** What an explore cycle's recording and states are made with. */
function exploreInput(input: CampaignRunInput, planned: PlannedCycle, signal: AbortSignal): ExploreInput {
  const settings = input.campaign.scenarios.find((s) => s.settings.name === planned.scenario)!.settings;
  const { runtime, serverVersion } = input.runtimeFor(planned.scenario);
  return {
    runId: planned.id,
    settings,
    seed: planned.seed,
    expectation: settings.expect,
    states: settings.explore!.states,
    pick: settings.explore!.pick,
    recordingDir: recordingDir(input.dir, planned),
    stateDir: (id) => {
      rmSync(cycleDir(input.dir, id), { recursive: true, force: true });
      return cycleDir(input.dir, id);
    },
    reproPrefix: join(input.dirLabel, 'cycles'),
    cacheRoot: input.cacheRoot,
    runtime,
    serverVersion,
    ...(input.diskEnvironment ? { diskEnvironment: input.diskEnvironment } : {}),
    ...(input.lanes !== undefined ? { lanes: input.lanes } : {}),
    signal,
  };
}

function recordingDir(dir: string, planned: PlannedCycle): string {
  return join(dir, 'recordings', planned.id);
}

/** An explore cycle's recording, in a folder emptied of what an interrupted run of it left. */
function recordCycle(explore: ExploreInput): ReturnType<typeof recordExploration> {
  rmSync(explore.recordingDir, { recursive: true, force: true });
  return recordExploration(explore);
}

/** Recordings are made ahead where states are judged more than one at a time. */
function recordsAhead(input: CampaignRunInput): boolean {
  return (input.lanes ?? defaultLanes()) > 1;
}

/**
 * What an exploration's recording held and how its states are judged, said once it is made; and
 * whether it was made while the cycle before it was judged (the load then shared the cores).
 */
export function recordedLine(id: string, r: ExploreRecordingSummary, ahead = false): string {
  const seconds = Object.values(r.timings).reduce((sum, ms) => sum + (ms ?? 0), 0) / 1000;
  return (
    `${id}: recorded ${r.writes} writes in ${seconds.toFixed(1)} s${ahead ? ' while the cycle before it was judged' : ''}, ${r.barriers} barriers with writes pending; ` +
    `judging ${r.picked} state${r.picked === 1 ? '' : 's'}, ${r.lanes} at once` +
    (r.mostLanes > r.lanes ? `, up to ${r.mostLanes} while the cores have room` : '')
  );
}

/** Another lane opened during an exploration, said when it does. */
export function laneLine(id: string, o: LaneOpening): string {
  return `${id}: judging ${o.lanes} states at once after ${o.afterStates}: the cores were ${Math.round(100 * o.busyShare)}% busy with ${o.lanes - 1}`;
}

/** A perf scenario's cycle: one pair of runs, doublewrite on then off; a line of progress when done. */
async function perfOne(input: CampaignRunInput, planned: PlannedCycle, settings: ScenarioSettings, diskRoot: string): Promise<PerfPairRecord> {
  const { runtime, serverVersion } = input.runtimeFor(planned.scenario);
  const started = Date.now();
  const pair = await measurePair({
    id: planned.id,
    settings,
    cycle: planned.cycle,
    seed: planned.seed,
    runtime,
    serverVersion,
    cacheRoot: input.cacheRoot,
    diskRoot,
    ...(input.diskEnvironment ? { diskEnvironment: input.diskEnvironment } : {}),
    signal: input.signal,
  });
  input.progress.warn(`${perfPairLine(pair)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return pair;
}

function hasPerf(campaign: Campaign): boolean {
  return campaign.scenarios.some((s) => s.settings.perf);
}

/** An earlier run's records by the cycle that made them; an exploration counts only once whole. */
function finishedByCycle(finished: CycleRecord[]): Map<string, CycleRecord[]> {
  const byCycle = new Map<string, CycleRecord[]>();
  for (const record of finished) {
    const id = record.explore?.run ?? record.id;
    byCycle.set(id, [...(byCycle.get(id) ?? []), record]);
  }
  for (const [id, list] of byCycle) {
    const of = list[0]!.explore?.of;
    if (of !== undefined && list.length !== of) byCycle.delete(id); // interrupted: explored again
  }
  return byCycle;
}

function cycleDir(dir: string, id: string): string {
  return join(dir, 'cycles', id);
}

/** Every scenario of the campaign, with the share of its cycles this run plans. */
function scenarioPlans(campaign: Campaign, cycles: PlannedCycle[]): ScenarioPlan[] {
  const counts = countByScenario(cycles);
  // a perf scenario's cycles are pairs of runs (results.perf), never cycle records
  return campaign.scenarios.map((s) => {
    const planned = counts.get(s.settings.name) ?? 0;
    return s.settings.perf ? { settings: s.settings, cyclesPlanned: 0, pairsPlanned: planned } : { settings: s.settings, cyclesPlanned: planned * (s.settings.explore?.states ?? 1) };
  });
}

