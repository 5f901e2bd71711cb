/**
 * What explore buys, and how close it comes to the server's own limit. For each scenario of a
 * campaign file (default campaigns/quick.yml): live cycles, then one recording whose states are
 * judged three times: one at a time with nothing remembered between scans (the baseline); as
 * explore judged them before clone stores (lanes, scan memo, each state built in a working image
 * put back afterwards and judged on a power-fail disk); and as explore judges them by default
 * (lanes, scan memo, each state a clone judged on a loop disk); and as explore judges them in a
 * campaign of several cycles, with the next cycle's recording made meanwhile (whose rate holds the
 * recording's time only where it outlasts the states). Prints the recording's stages and,
 * per pass, each stage's median time, the judged states per hour with the recording's time
 * included, and that rate as a share of the recovery-only limit (3,600 s over the median time of
 * the states' own recoveries, one at a time: the baseline's);
 * whether every pass gave the baseline's verdicts, torn-page lists
 * and crash-image digests (rig/explore/image-hash.ts); the peak memory and disk per state in flight; and the CPU a state
 * costs (the machine's busy time and the rig's own process's, its kernel part and the bytes it read), with the rate the cores could reach at
 * that cost, without and with the recording (its share of the limit says whether the target can be
 * reached on this machine at all), and with the recording but the rig's own process at no cost
 * (what the servers, the disks and the kernel alone allow); under the target, the same two were the
 * next recording made while the states are judged (the recording's CPU, measured, added to the
 * states'); and any state whose recovery ran to the
 * rig's bound or stalled (a hung server), with the rate
 * without it. Target: 75% of the limit.
 * `--lanes N` judges every pass after the first N states at once (as `rig campaign --lanes`);
 * without it the third and fourth open lanes while the cores have room, as explore does, and say when.
 * Run from the project root as root: `node dist/bench/explore.js [--cycles N] [--states N]
 * [--pick P] [--trigger T] [--lanes N] [--scenario NAME] [campaign.yml]`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCampaign } from '../rig/campaign/load-campaign.js';
import { contextFromEnv } from '../rig/context.js';
import { runCycle } from '../rig/cycle/run-cycle.js';
import { judgeRecorded, type ExploreInput, type ExploreResult } from '../rig/explore/run-explore.js';
import { recordLoad } from '../rig/explore/record-load.js';
import { busyShareBetween, machineCpu } from '../rig/explore/machine-cpu.js';
import { runInterruptible } from '../rig/interrupts.js';
import { exitCodeOf } from '../rig/errors.js';
import { exercisedDoublewrite } from '../rig/results/exercised.js';
import { EXPLORE_PICKS, type CycleRecord, type ExplorePick, type ScenarioSettings } from '../rig/results/types.js';
import { createRuntime } from '../rig/runtime/create-runtime.js';
import { checkCampaignTrigger } from '../rig/campaign/field-parsers.js';
import { DEFAULT_EXPLORE_TRIGGER } from '../rig/defaults.js';
import { benchArgs, refuse } from './bench-args.js';

const USAGE = 'usage: node dist/bench/explore.js [--cycles N] [--states N] [--pick P] [--trigger T] [--lanes N] [--scenario NAME] [campaign.yml]';
const { values, positionals } = benchArgs(USAGE, { cycles: 'whole', states: 'count', pick: 'text', trigger: 'text', lanes: 'count', scenario: 'text' });
const CYCLES = Number(values.cycles ?? '6');
const STATES = Number(values.states ?? '50');
const PICK = (values.pick ?? 'targeted') as ExplorePick;
const TRIGGER = values.trigger ?? '';
const ONLY = values.scenario ?? '';
const LANES = values.lanes === undefined ? {} : { lanes: Number(values.lanes) };
// a campaign records its next explore cycle beside the judging only with more than one lane
const BESIDE = LANES.lanes === 1 ? 'beside another recording (a campaign with --lanes 1 records each in its turn)' : 'as a campaign of several cycles runs them, the next recording made meanwhile';
if (positionals.length > 1 || (positionals[0] !== undefined && !positionals[0].endsWith('.yml'))) {
  refuse(`give at most one campaign file (*.yml), not ${positionals.join(' ')}`, USAGE);
}
const FILE = positionals[0] ?? 'campaigns/quick.yml';
const TARGET_SHARE = 0.75;

/** What a record exercised, by the scenario's claim. */
function exercised(r: CycleRecord): boolean {
  if (r.expectation === 'never-torn') return (r.exercised?.pageWritesInFlight ?? 0) > 0;
  if (r.expectation === 'recovers') return exercisedDoublewrite(r.exercised);
  return r.tornPagesBefore.length > 0;
}

const CLAIM_WORDS: Record<string, string> = { 'never-torn': 'page writes in flight', recovers: 'exercised doublewrite', 'torn-reproduced': 'torn pages' };

function share(records: CycleRecord[]): string {
  const n = records.filter(exercised).length;
  return `${n}/${records.length} (${records.length ? Math.round((100 * n) / records.length) : 0}%)`;
}

function verdicts(records: CycleRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${v} ${n}`).join(', ');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
}

const STAGES = ['materialize', 'scanBefore', 'recover', 'scanAfter', 'judge'] as const;

/** Each stage's median (s) over the states that ran it. */
function stageTimes(records: CycleRecord[]): string {
  return STAGES.map((s) => `${s} ${(median(records.map((r) => r.timings[s]).filter((x): x is number => x !== undefined)) / 1000).toFixed(2)}`).join(', ');
}

/** The median time of the states' own recoveries (those that ran one), ms. */
function medianRecovery(records: CycleRecord[]): number {
  return median(records.filter((r) => !r.explore?.duplicateOf && r.timings.recover !== undefined).map((r) => r.timings.recover!));
}

/** Each state judged differently by the two passes: its id, and how each pass judged it and why. */
function differences(before: Pass, other: Pass): string {
  const said = (r: CycleRecord) => `${judgement(r)} (${r.error ?? r.reason})`;
  const after = other.result.records;
  return before.result.records
    .flatMap((r, i) => (judgement(r) === judgement(after[i]!) ? [] : [`  judged differently: ${r.id}: ${before.name} ${said(r)}; ${other.name} ${said(after[i]!)}\n`]))
    .join('');
}

/** What must be the same whichever way a state is judged. */
function judgement(r: CycleRecord): string {
  return JSON.stringify([r.verdict, r.tornPagesBefore.map((p) => `${p.file}:${p.page}`), r.crashImageBlocksSha256]);
}

/** Resident memory of this process's descendants (servers, disk helpers), sampled. */
class TreeMemory {
  peak = 0;
  private readonly timer = setInterval(() => (this.peak = Math.max(this.peak, descendantsRss(process.pid))), 500);
  stop(): number {
    clearInterval(this.timer);
    return this.peak;
  }
}

function descendantsRss(root: number): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      parent.set(Number(name), Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0));
      rss.set(Number(name), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
    } catch {
      // gone since the listing
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p = parent.get(pid); p; p = parent.get(p)) {
      if (p === root) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

/** This process's peak resident memory since the last reset (VmHWM), and a reset. */
function peakRss(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
}
function resetPeak(): void {
  writeFileSync('/proc/self/clear_refs', '5'); // the kernel's reset of VmHWM
}

const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;

/** The bytes this process has read so far, from files and pipes alike (/proc/self/io's rchar). */
function bytesRead(): number {
  return Number(/^rchar:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
}

interface PassCpu {
  machine: number; // the machine's busy time, seconds
  rig: number; // this process's (its threads included), seconds
  rigSystem: number; // the part of it in the kernel, seconds
  rigRead: number; // the bytes it read
  busyShare: number; // how busy the cores were
}

/** What a pass cost in CPU: the machine's busy time and this process's own, and what it read. */
class CpuUse {
  private readonly machine = machineCpu()!;
  private readonly own = process.cpuUsage();
  private readonly read = bytesRead();
  stop(): PassCpu {
    const now = machineCpu()!;
    const own = process.cpuUsage(this.own);
    return {
      machine: now.busy - this.machine.busy,
      rig: (own.user + own.system) / 1e6,
      rigSystem: own.system / 1e6,
      rigRead: bytesRead() - this.read,
      busyShare: busyShareBetween(this.machine, now) ?? 0,
    };
  }
}

interface Pass {
  name: string;
  result: ExploreResult;
  rig: number; // the rig process's peak resident memory, bytes
  tree: number; // its descendants' peak, bytes
  lanes: number;
  cpu: PassCpu;
}

/**
 * States whose recovery ran until one of the rig's bounds or stalled before it (a server that
 * hung: the verdict is the server's, the time is the bound's or the stall window's), and the rate
 * of the pass without them, about: their stages' time taken out, shared by the lanes as the pass
 * shared it. Empty when none did.
 */
function boundLine(p: Pass, recordMs: number, limitPerHour: number): string {
  const records = p.result.records;
  const bound = records.filter((r) => r.recovery?.timedOut && !r.explore?.duplicateOf); // a duplicate ran no recovery of its own
  if (!bound.length) return '';
  const stagesMs = (r: CycleRecord) => Object.values(r.timings).reduce((a, b) => a + (b ?? 0), 0);
  const boundMs = bound.reduce((sum, r) => sum + stagesMs(r), 0);
  const restMs = Math.max(1, p.result.statesMs - boundMs / Math.max(1, p.lanes));
  const rest = ((records.length - bound.length) / (recordMs + restMs)) * 3_600_000;
  return (
    `    ${bound.length} state(s) ran to the rig's bound or stalled (${bound.map((r) => `${r.id.split('-').pop()} ${r.verdict}, ${r.recovery!.stalled ? 'stalled in its ' : ''}${r.recovery!.timedOut} ${(stagesMs(r) / 1000).toFixed(0)} s`).join('; ')}); ` +
    `without them about ${rest.toFixed(0)} states/h (${Math.round((100 * rest) / limitPerHour)}% of the limit)\n`
  );
}

/** The recording's stages in seconds: a first run's prepare includes building the prepared image. */
function recordingPhases(timings: Partial<Record<string, number>>): string {
  return Object.entries(timings).map(([phase, ms]) => `${phase} ${((ms ?? 0) / 1000).toFixed(1)}`).join(', ');
}

/** How many states a pass judged at once: lanes opened during it, when, how busy the cores were. */
function lanesText(r: ExploreResult): string {
  const opened = r.lanesOpened.map((o) => `, ${o.lanes} after ${o.afterStates} states with the cores ${Math.round(100 * o.busyShare)}% busy`);
  return `${r.lanes - opened.length} at once${opened.join('')}`;
}

/**
 * The most a pass's CPU cost allows (every core busy judging from the recording's end), in states
 * an hour with the recording; and the same with the rig's own process taken out: what the
 * servers, the disks and the kernel allow.
 */
function ceilings(p: Pass, recordMs: number): { ceiling: number; bare: number } {
  const n = p.result.records.length;
  const ceilingAt = (cpuS: number) => (n / (recordMs + (cpuS * 1000) / cpus().length)) * 3_600_000;
  return { ceiling: ceilingAt(p.cpu.machine), bare: ceilingAt(Math.max(0, p.cpu.machine - p.cpu.rig)) };
}

/**
 * The most the cores allow were the next recording made while these states are judged, so that
 * only CPU and never the recording's wait holds the states back: the recording's CPU and the
 * states' together over every core, and the same with the rig's own process at no cost in both
 * (its load client included, so this is an upper bound).
 */
function overlapped(p: Pass, recordCpu: PassCpu): { ceiling: number; bare: number } {
  const n = p.result.records.length;
  const at = (cpuS: number) => (n / ((cpuS * 1000) / cpus().length)) * 3_600_000;
  const bareS = (c: PassCpu) => Math.max(0, c.machine - c.rig);
  return { ceiling: at(recordCpu.machine + p.cpu.machine), bare: at(bareS(recordCpu) + bareS(p.cpu)) };
}

/** Under the target: whether a cheaper rig could reach it here, or no rig could. */
function reachText(p: Pass, recordMs: number, recordCpu: PassCpu, limitPerHour: number, rate: number): string {
  if (rate >= TARGET_SHARE * limitPerHour) return '';
  const { ceiling, bare } = ceilings(p, recordMs);
  const both = overlapped(p, recordCpu);
  const target = TARGET_SHARE * limitPerHour;
  const pct = (perHour: number) => `${Math.round((100 * perHour) / limitPerHour)}%`;
  const n = p.result.records.length;
  const rigNow = (recordCpu.rig + p.cpu.rig) / n;
  const rigBudget = rigNow + (cpus().length * 3600) / target - (recordCpu.machine + p.cpu.machine) / n; // CPU s a state
  const cheaper = `with the rig's own process at ${rigBudget.toFixed(2)} s of CPU a state, recording included, against ${rigNow.toFixed(2)} s now`;
  const verdict =
    both.bare < target ? 'even a rig at no cost that records while it judges stays under the target here'
    : bare < target ? (both.ceiling < target ? `only a rig that records while it judges reaches the target here, ${cheaper}` : 'only a rig that records while it judges reaches the target here')
    : ceiling < target ? 'only a cheaper rig reaches the target here'
    : 'the cores have room, so waits hold it back, not CPU';
  return (
    ` (at this CPU cost the cores allow ${pct(ceiling)}, ${pct(bare)} with the rig's own process costing nothing; ` +
    `recording while judging, ${pct(both.ceiling)} and ${pct(both.bare)}: ${verdict})`
  );
}

function passLine(p: Pass, recordMs: number, limitPerHour: number): string {
  const n = p.result.records.length;
  const perState = (total: number) => total / Math.max(1, n);
  const perHour = (n / (recordMs + p.result.statesMs)) * 3_600_000;
  const { ceiling, bare } = ceilings(p, recordMs);
  return (
    `  ${p.name} (${lanesText(p.result)}): ${perHour.toFixed(0)} states/h with the recording (${perState(p.result.statesMs / 1000).toFixed(2)} s per state, ` +
    `${Math.round((100 * perHour) / limitPerHour)}% of the limit); stages (median s) ${stageTimes(p.result.records)}; ` +
    `memory: rig ${mib(p.rig)}, servers and disks ${mib(p.tree)} (${mib(p.tree / p.lanes)} per state in flight); ` +
    `disk ${mib(p.result.peakLaneBytes ?? 0)} per state in flight\n` +
    `    CPU per state: the machine's ${perState(p.cpu.machine).toFixed(2)} s, the rig's own process ${perState(p.cpu.rig).toFixed(2)} s ` +
    `(${perState(p.cpu.rigSystem).toFixed(2)} s of it in the kernel; it read ${mib(perState(p.cpu.rigRead))} a state); ` +
    `${cpus().length} cores ${Math.round(100 * p.cpu.busyShare)}% busy; at this cost the cores judge at most ${((3600 * cpus().length) / perState(p.cpu.machine)).toFixed(0)} states/h, ` +
    `${ceiling.toFixed(0)} with the recording (${Math.round((100 * ceiling) / limitPerHour)}% of the limit); ` +
    `with the rig's own process costing nothing, ${bare.toFixed(0)} (${Math.round((100 * bare) / limitPerHour)}%)`
  );
}

async function main(): Promise<void> {
  if (!EXPLORE_PICKS.includes(PICK)) refuse(`--pick: '${PICK}' is not a pick; use one of ${EXPLORE_PICKS.join(', ')}`, USAGE);
  const trigger = TRIGGER ? checkCampaignTrigger(TRIGGER) : null;
  if (trigger && !trigger.ok) refuse(`--trigger: ${trigger.problem}`, USAGE);
  const campaign = await loadCampaign(FILE, {}).catch((error: unknown) => (exitCodeOf(error) === 2 ? refuse((error as Error).message, USAGE) : Promise.reject(error)));
  const scenarios = campaign.scenarios.filter((s) => !ONLY || s.settings.name === ONLY);
  if (!scenarios.length) refuse(`--scenario: ${FILE} has no scenario '${ONLY}'; use one of ${campaign.scenarios.map((s) => s.settings.name).join(', ')}`, USAGE);
  const context = contextFromEnv();
  const root = mkdtempSync(join(tmpdir(), 'rig-bench-explore-'));
  process.stdout.write(`explore bench: ${FILE}, ${CYCLES} live cycles and ${STATES} ${PICK} states per scenario, judged four ways on one recording\n`);
  const shares: number[] = [];
  try {
    await runInterruptible(async (signal) => {
      for (const { settings: live } of scenarios) {
        const runtime = await createRuntime(live, context, signal);
        const dir = join(root, live.name);
        try {
          const { server, version } = await runtime.describe();
          const serverVersion = `${server} ${version}`;
          const liveStarted = Date.now();
          const cycles: CycleRecord[] = [];
          for (let i = 1; i <= CYCLES; i++) {
            const cycleDir = join(dir, `cycle-${i}`);
            cycles.push(await runCycle({ id: `${live.name}-${i}`, settings: live, cycle: i, seed: i, expectation: live.expect, dir: cycleDir, cacheRoot: context.cacheRoot, diskEnvironment: context.disk, runtime, serverVersion, repro: '', signal }));
            rmSync(cycleDir, { recursive: true, force: true });
          }
          const cyclesPerHour = CYCLES ? (CYCLES / (Date.now() - liveStarted)) * 3_600_000 : 0;
          const settings: ScenarioSettings = { ...live, disk: { ...live.disk, trigger: trigger?.ok ? trigger.value : DEFAULT_EXPLORE_TRIGGER }, explore: { states: STATES, pick: PICK } };
          const recordingDir = join(dir, 'recording');
          const recordStarted = Date.now();
          const recordCpuUse = new CpuUse();
          const recorded = await recordLoad({ settings, seed: 1, dir: recordingDir, cacheRoot: context.cacheRoot, runtime, serverVersion, diskEnvironment: context.disk, signal });
          const recordMs = Date.now() - recordStarted;
          const recordCpu = recordCpuUse.stop();
          const input = (pass: string): ExploreInput => ({
            runId: `${live.name}-explore`, settings, seed: 1, expectation: live.expect, states: STATES, pick: PICK,
            recordingDir, stateDir: (id) => join(dir, pass, id.split('-').pop()!), reproPrefix: '', // short: the disk's socket path
            cacheRoot: context.cacheRoot, diskEnvironment: context.disk, runtime, serverVersion, signal,
          });
          const passes: Pass[] = [];
          const ways: Array<[string, Partial<ExploreInput>]> = [
            ['one at a time, no memo', { lanes: 1, scanMemo: false }],
            ['power-fail disks, put back', { clones: false, ...LANES }],
            ['as explore runs', { ...LANES }],
          ];
          for (const [name, options] of ways) {
            resetPeak();
            const tree = new TreeMemory();
            const cpu = new CpuUse();
            const result = await judgeRecorded({ ...input(`pass-${passes.length + 1}`), ...options, onWarning: (line) => process.stdout.write(`  ${line}\n`) }, recorded, recordMs);
            passes.push({ name, result, rig: peakRss(), tree: tree.stop(), lanes: result.lanes, cpu: cpu.stop() });
          }
          // as a campaign of several explore cycles runs: the next cycle's recording made while
          // these states are judged (rig/campaign/recording-ahead.ts); a cycle then takes the
          // longer of the two, and so does each cycle after it
          const overlapStarted = Date.now();
          const nextRecording = recordLoad({ settings, seed: 2, dir: join(dir, 'recording-next'), cacheRoot: context.cacheRoot, runtime, serverVersion, diskEnvironment: context.disk, signal }).then((r) => ({ writes: r.recording.events.filter((e) => e.kind === 'write').length, ms: Date.now() - overlapStarted }));
          nextRecording.catch(() => undefined); // awaited below, after the states
          const beside = await judgeRecorded({ ...input('pass-4'), ...LANES, onWarning: (line) => process.stdout.write(`  ${line}\n`) }, recorded, recordMs);
          const next = await nextRecording;
          const overlapMs = Date.now() - overlapStarted;
          const [before, putBack, after] = passes as [Pass, Pass, Pass];
          const recoveryMs = medianRecovery(before.result.records);
          const limit = 3_600_000 / recoveryMs;
          const afterRate = (after.result.records.length / (recordMs + after.result.statesMs)) * 3_600_000;
          const besideRate = (beside.records.length / overlapMs) * 3_600_000;
          shares.push(afterRate / limit);
          const same = before.result.records.filter((r, i) => passes.every((p) => judgement(r) === judgement(p.result.records[i]!)) && judgement(r) === judgement(beside.records[i]!)).length;
          const putBackRate = (putBack.result.records.length / (recordMs + putBack.result.statesMs)) * 3_600_000;
          const claim = CLAIM_WORDS[live.expect] ?? 'exercised';
          process.stdout.write(
            `${live.name} (${serverVersion}): ${CYCLES ? `live ${cyclesPerHour.toFixed(0)} cycles/h (${verdicts(cycles)}; ${claim} ${share(cycles)})` : 'no live cycles'}; ` +
              `recording ${(recordMs / 1000).toFixed(1)} s (${recordingPhases(recorded.timings)}; CPU: the machine's ${recordCpu.machine.toFixed(1)} s, the rig's own process ${recordCpu.rig.toFixed(1)} s); ${after.result.records.length} states: ${verdicts(after.result.records)}; ${claim} ${share(after.result.records)}\n` +
              `  recovery-only limit ${limit.toFixed(0)} states/h (median recovery ${(recoveryMs / 1000).toFixed(2)} s, one at a time); ` +
              `the same verdict, torn pages and crash-image digest in every pass: ${same} of ${before.result.records.length}\n` +
              passes.map((p) => `${passLine(p, recordMs, limit)}\n${boundLine(p, recordMs, limit)}`).join('') +
              `  ${BESIDE} (${lanesText(beside)}): ${besideRate.toFixed(0)} states/h, its recording's time in it ` +
              `(${(overlapMs / 1000 / Math.max(1, beside.records.length)).toFixed(2)} s per state, ${Math.round((100 * besideRate) / limit)}% of the limit); the states took ${(beside.statesMs / 1000).toFixed(1)} s, ` +
              `the recording beside them ${(next.ms / 1000).toFixed(1)} s for ${next.writes} writes (alone: ${(recordMs / 1000).toFixed(1)} s for ${after.result.recording.writes})\n` +
              `  explore at ${Math.round((100 * afterRate) / limit)}% of the limit (target ${100 * TARGET_SHARE}%)${reachText(after, recordMs, recordCpu, limit, afterRate)}, ` +
              `${Math.round((100 * besideRate) / limit)}% ${LANES.lanes === 1 ? 'beside another recording' : 'in a campaign of several cycles'}${CYCLES ? `, ${(afterRate / cyclesPerHour).toFixed(2)}x the live cycles` : ''}, ` +
              `${(afterRate / putBackRate).toFixed(2)}x the rate on power-fail disks${after.result.clones ? '' : ' (no clone store here: the same way twice)'}\n` +
              differences(before, putBack) +
              differences(before, after) +
              differences(before, { ...after, name: 'beside the next recording', result: beside }),
          );
          const error = [...cycles, ...after.result.records].find((r) => r.verdict === 'rig-error');
          if (error) process.stdout.write(`  first rig error: ${error.id}: ${error.error ?? error.reason}\n`);
        } finally {
          await runtime.close?.();
          rmSync(dir, { recursive: true, force: true });
        }
      }
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  if (shares.length > 1) process.stdout.write(`mean share of the recovery-only limit: ${Math.round((100 * shares.reduce((a, b) => a + b, 0)) / shares.length)}%\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
