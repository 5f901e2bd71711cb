/**
 * What explore buys: for each scenario of a campaign file (default campaigns/quick.yml), live
 * cycles and one exploration on the same settings in one run, interleaved scenario by scenario.
 * Prints cycles per hour, judged states per hour (the recording's time included) and their ratio,
 * and what the states exercised: the negative control's share of states with torn pages, the
 * doublewrite scenario's share that exercised doublewrite, the never-torn scenario's share with
 * page writes in flight. Targets: at least 1,200 states per hour, and 2x the live cycles per hour.
 * Run from the project root as root: `node dist/bench/explore.js [--cycles N] [--states N]
 * [--pick P] [--trigger T] [campaign.yml]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCampaign } from '../rig/campaign/load-campaign.js';
import { contextFromEnv } from '../rig/context.js';
import { runCycle } from '../rig/cycle/run-cycle.js';
import { runExplore } from '../rig/explore/run-explore.js';
import { runInterruptible } from '../rig/interrupts.js';
import { exercisedDoublewrite } from '../rig/results/exercised.js';
import { EXPLORE_PICKS, type CycleRecord, type ExplorePick, type ScenarioSettings } from '../rig/results/types.js';
import { createRuntime } from '../rig/runtime/create-runtime.js';
import { checkCampaignTrigger } from '../rig/campaign/field-parsers.js';
import { DEFAULT_EXPLORE_TRIGGER } from '../rig/defaults.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
}

const CYCLES = Number(arg('--cycles', '6'));
const STATES = Number(arg('--states', '50'));
const PICK = arg('--pick', 'targeted') as ExplorePick;
const TRIGGER = arg('--trigger', '');
const FILE = process.argv.slice(2).find((a, i, all) => a.endsWith('.yml') && !all[i - 1]?.startsWith('--')) ?? 'campaigns/quick.yml';

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

async function main(): Promise<void> {
  if (!EXPLORE_PICKS.includes(PICK)) throw new Error(`--pick: one of ${EXPLORE_PICKS.join(', ')}`);
  const trigger = TRIGGER ? checkCampaignTrigger(TRIGGER) : null;
  if (trigger && !trigger.ok) throw new Error(`--trigger: ${trigger.problem}`);
  const campaign = await loadCampaign(FILE, {});
  const context = contextFromEnv();
  const root = mkdtempSync(join(tmpdir(), 'rig-bench-explore-'));
  process.stdout.write(`explore bench: ${FILE}, ${CYCLES} live cycles and ${STATES} ${PICK} states per scenario\n`);
  const rows: string[] = [];
  let totalLive = 0;
  let totalExplore = 0;
  try {
    await runInterruptible(async (signal) => {
      for (const { settings: live } of campaign.scenarios) {
        const runtime = await createRuntime(live, context, signal);
        try {
          const { server, version } = await runtime.describe();
          const serverVersion = `${server} ${version}`;
          const liveStarted = Date.now();
          const cycles: CycleRecord[] = [];
          for (let i = 1; i <= CYCLES; i++) {
            const dir = join(root, live.name, `cycle-${i}`);
            cycles.push(await runCycle({ id: `${live.name}-${i}`, settings: live, cycle: i, seed: i, expectation: live.expect, dir, cacheRoot: context.cacheRoot, diskEnvironment: context.disk, runtime, serverVersion, repro: '', signal }));
            rmSync(dir, { recursive: true, force: true });
          }
          const liveMs = Date.now() - liveStarted;
          const settings: ScenarioSettings = { ...live, disk: { ...live.disk, trigger: trigger?.ok ? trigger.value : DEFAULT_EXPLORE_TRIGGER }, explore: { states: STATES, pick: PICK } };
          const explored = await runExplore({
            runId: `${live.name}-explore`, settings, seed: 1, expectation: live.expect, states: STATES, pick: PICK,
            recordingDir: join(root, live.name, 'recording'), stateDir: (id) => join(root, live.name, id.split('-').pop()!), reproPrefix: '', // short: the disk's socket path
            cacheRoot: context.cacheRoot, diskEnvironment: context.disk, runtime, serverVersion, signal,
          });
          const exploreMs = explored.recordMs + explored.statesMs;
          const cyclesPerHour = (CYCLES / liveMs) * 3_600_000;
          const statesPerHour = (explored.records.length / exploreMs) * 3_600_000;
          totalLive += cyclesPerHour;
          totalExplore += statesPerHour;
          const claim = CLAIM_WORDS[live.expect] ?? 'exercised';
          rows.push(
            `${live.name}: live ${cyclesPerHour.toFixed(0)} cycles/h (${verdicts(cycles)}; ${claim} ${share(cycles)}); ` +
              `explore ${statesPerHour.toFixed(0)} states/h (record ${(explored.recordMs / 1000).toFixed(1)} s, ${explored.records.length} states in ${(explored.statesMs / 1000).toFixed(1)} s; ` +
              `${verdicts(explored.records)}; ${claim} ${share(explored.records)}); ratio ${(statesPerHour / cyclesPerHour).toFixed(2)}`,
          );
          process.stdout.write(`${rows.at(-1)}\n`);
          const error = [...cycles, ...explored.records].find((r) => r.verdict === 'rig-error');
          if (error) process.stdout.write(`  first rig error: ${error.id}: ${error.error ?? error.reason}\n`);
        } finally {
          await runtime.close?.();
          rmSync(join(root, live.name), { recursive: true, force: true });
        }
      }
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const n = campaign.scenarios.length;
  process.stdout.write(`mean: live ${(totalLive / n).toFixed(0)} cycles/h, explore ${(totalExplore / n).toFixed(0)} states/h, explore / live ${(totalExplore / totalLive).toFixed(2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
