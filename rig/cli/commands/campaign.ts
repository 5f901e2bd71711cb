/**
 * `rig campaign FILE`: runs every cycle of a campaign file (or one shard of them), with progress,
 * DIR/results.json rewritten after every cycle, then junit.xml and the HTML report. Exit 0 when
 * every expectation held, 1 when one did not (or a negative control was blind, or a scenario was
 * vacuous: it did not exercise its claim), 2 on bad input (before anything is created), 3 when
 * the rig itself failed. `--resume` continues an
 * interrupted run in the same DIR without redoing its finished cycles. `--history [STORE]` files
 * the finished run into the history store and adds "Since earlier runs" to its report.
 */
import { DISK_BACKENDS, type DiskBackend } from '../../../faults/disk-record.js';
import { Option, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCampaign } from '../../campaign/load-campaign.js';
import { describeEnvironment } from '../../campaign/environment.js';
import { checkFolderPath } from '../../folder-path.js';
import { checkFreshOutFolder, clearEarlierRun } from '../../campaign/out-folder.js';
import { parseCyclesOption, parseLanesOption, parseSeedOption } from '../../campaign/parse-overrides.js';
import { planCycles, recordsPlanned } from '../../campaign/plan-cycles.js';
import { createProgress } from '../../campaign/progress.js';
import { readResumeState, type ResumeState } from '../../campaign/resume-state.js';
import { runCampaign, type ScenarioRuntime } from '../../campaign/run-campaign.js';
import { preflightBackends } from '../preflight-backends.js';
import { parseShard, selectShard } from '../../campaign/shard.js';
import type { Campaign, Shard } from '../../campaign/types.js';
import { sweepLeftovers } from '../../cleanup/sweep-leftovers.js';
import { contextFromEnv, type RigContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { fileRun, historyOfRun } from '../../history/file-run.js';
import { loadResults } from '../../results/load-results.js';
import { summaryOf } from '../../results/results-file.js';
import { defaultHistoryPath, HistoryStore } from '../../history/history-store.js';
import { changeSummary } from '../../history/history-view.js';
import { checkSize } from '../../../faults/sizes.js';
import { runInterruptible } from '../../interrupts.js';
import { outcomeExitCode } from '../../results/summarize.js';
import { judgedText, judgedUnit } from '../../results/judged-count.js';
import type { CampaignResults } from '../../results/types.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { unsupportedSetting } from '../../runtime/server-args.js';
import { missingRocksdb } from '../../runtime/rocksdb-support.js';
import { serverIdentity } from '../../results/server-identity.js';
import { writeReport } from '../../../reports/write-report.js';
import { flagValue } from '../flag-value.js';
import { defaultLanes } from '../../explore/run-explore.js';
import { mostLanes } from '../../explore/lane-growth.js';
import { runAction } from '../run-action.js';
import { summaryLines } from './merge.js';

export interface CampaignOptions {
  out: string;
  shard?: string;
  resume?: boolean;
  cycles?: string;
  seed?: string;
  backend?: DiskBackend;
  evidenceMax?: string;
  scenario?: string[];
  /** --lanes N: explore cycles judge N states at once. */
  lanes?: string;
  /** --history [store]: file the finished run there and add "Since earlier runs" to its report. */
  history?: string | true;
}

/**
 * One runtime per distinct runtime/image the scenarios name, created up front; each scenario's
 * settings are checked against its server (doublewrite: fast needs MariaDB 11.x) before anything
 * runs. On any failure the runtimes made so far are closed.
 */
async function scenarioRuntimes(campaign: Campaign, context: RigContext, signal: AbortSignal): Promise<Map<string, ScenarioRuntime>> {
  const byKey = new Map<string, ScenarioRuntime>();
  const byScenario = new Map<string, ScenarioRuntime>();
  try {
    for (const { settings } of campaign.scenarios) {
      const key = `${settings.runtime}\0${settings.image ?? ''}`;
      if (!byKey.has(key)) {
        const runtime = await createRuntime(settings, context, signal);
        byKey.set(key, { runtime, serverVersion: '' });
        const { server, version } = await runtime.describe();
        byKey.set(key, { runtime, serverVersion: `${server} ${version}` });
      }
      const chosen = byKey.get(key)!;
      const unsupported = unsupportedSetting(settings.server, serverIdentity(chosen.serverVersion));
      if (unsupported) throw badInput(`${campaign.file}: scenario ${settings.name}: ${unsupported}`);
      const noRocksdb = await missingRocksdb(settings.server, chosen.runtime, chosen.serverVersion);
      if (noRocksdb) throw badInput(`${campaign.file}: scenario ${settings.name}: ${noRocksdb}`);
      byScenario.set(settings.name, chosen);
    }
    return byScenario;
  } catch (error) {
    for (const r of byKey.values()) await r.runtime.close?.();
    throw error;
  }
}

/** The campaign with each docker scenario naming the image it runs, chosen when it named none. */
function withChosenImages(loaded: Campaign, runtimes: Map<string, ScenarioRuntime>): Campaign {
  const scenarios = loaded.scenarios.map((s) => {
    const tag = runtimes.get(s.settings.name)?.runtime.imageTag;
    return tag && !s.settings.image ? { ...s, settings: { ...s.settings, image: tag } } : s;
  });
  return { ...loaded, scenarios };
}

/** The campaign with every scenario's cut on `backend` (--backend), or as the file says. */
function onBackend(loaded: Campaign, backend: DiskBackend | undefined): Campaign {
  if (backend === undefined) return loaded;
  const on = (s: Campaign['scenarios'][number]): Campaign['scenarios'][number] => {
    const { backend: _, ...disk } = s.settings.disk;
    return { ...s, settings: { ...s.settings, disk: backend === 'dm' ? { ...disk, backend } : disk } };
  };
  return { ...loaded, scenarios: loaded.scenarios.map(on) };
}

/** The campaign cut down to the scenarios --scenario names (all of them when it names none). */
function onlyScenarios(loaded: Campaign, names: string[], file: string): Campaign {
  if (!names.length) return loaded;
  const known = loaded.scenarios.map((s) => s.settings.name);
  const unknown = names.find((n) => !known.includes(n));
  if (unknown !== undefined) throw badInput(`--scenario: '${unknown}' is not a scenario of ${file}; its scenarios: ${known.join(', ')}`);
  return { ...loaded, scenarios: loaded.scenarios.filter((s) => names.includes(s.settings.name)) };
}

async function campaign(file: string, o: CampaignOptions): Promise<number> {
  const shard = o.shard === undefined ? null : parseShard(o.shard);
  const cycles = o.cycles === undefined ? undefined : parseCyclesOption(o.cycles);
  const seed = o.seed === undefined ? undefined : parseSeedOption(o.seed);
  const loaded = onlyScenarios(await loadCampaign(file, { cycles, seed }), o.scenario ?? [], file);
  return runLoadedCampaign(onBackend(loaded, o.backend), file, o, shard);
}

/**
 * Runs a loaded campaign into --out with progress, resume and the report: `rig campaign` with a
 * file, `rig explore` with the one scenario its flags make.
 */
export async function runLoadedCampaign(loaded: Campaign, file: string, o: CampaignOptions, shard: Shard | null = null): Promise<number> {
  const evidenceMax = o.evidenceMax === undefined ? undefined : flagValue('--evidence-max', checkSize(o.evidenceMax, 1024 * 1024, '2G')); // as evidence.maxBytes
  const lanes = o.lanes === undefined ? undefined : parseLanesOption(o.lanes);
  checkFolderPath('--out', o.out, 'the results'); // as given: '' would resolve to the current folder
  const dir = resolve(o.out);
  await preflightBackends(loaded.scenarios.map((s) => s.settings), contextFromEnv().disk);
  const planned = selectShard(planCycles(loaded), shard);
  let resume: ResumeState | null = null;
  if (o.resume) resume = await readResumeState(dir, loaded, shard, planned);
  // nothing to resume: it starts there afresh, so the folder must be one a fresh run may write
  if (!resume) checkFreshOutFolder(dir);
  const context = contextFromEnv();
  const historyStore = o.history === undefined ? undefined : o.history === true ? defaultHistoryPath(context.workDir) : resolve(o.history);
  // a store that is there must be one, before anything runs
  if (historyStore !== undefined && existsSync(historyStore)) (await HistoryStore.open(historyStore, { read: true })).close();
  return runInterruptible(async (signal) => {
    const swept = await sweepLeftovers({ context });
    for (const line of [...swept.removed, ...swept.problems]) process.stderr.write(`rig: leftover of an earlier run: ${line}\n`);
    // made inside the interruptible part: Ctrl-C while the rig's dockerd starts still stops it
    const runtimes = await scenarioRuntimes(loaded, context, signal);
    const campaign = withChosenImages(loaded, runtimes);
    let progress: ReturnType<typeof createProgress> | null = null;
    let run;
    const historyLines: string[] = [];
    try {
      const first = runtimes.get(loaded.scenarios[0]!.settings.name)!;
      const environment = await describeEnvironment(first.runtime);
      if (o.resume && !resume) process.stderr.write(`rig: nothing to resume in ${o.out} (no results.json); starting the campaign\n`);
      if (!resume) clearEarlierRun(dir);
      const finished = resume?.finished ?? [];
      const evidence = { ...loaded.evidence, maxBytes: evidenceMax ?? loaded.evidence.maxBytes };
      progress = createProgress(recordsPlanned(loaded, planned), finished, process.stderr.isTTY === true);
      run = await runCampaign({
        campaign,
        cycles: planned,
        finished,
        finishedPerf: resume?.finishedPerf ?? [],
        dir,
        dirLabel: o.out,
        facts: {
          campaign: loaded.name,
          file,
          commandLine: ['rig', ...process.argv.slice(2)].join(' '),
          startedAt: resume?.startedAt ?? new Date().toISOString(),
          shard,
          seed: loaded.seed,
          environment,
          evidence,
        },
        evidence,
        runtimeFor: (name) => runtimes.get(name)!,
        cacheRoot: context.cacheRoot,
        diskEnvironment: context.disk,
        ...(lanes !== undefined ? { lanes } : {}),
        progress,
        renderReport: async (d) => {
          if (historyStore === undefined) return writeReport(d);
          // the finished run is filed before its report is rendered, so the report is written once
          const { results } = await loadResults(d);
          historyLines.push(await fileRun(results, d, historyStore));
          const view = await historyOfRun(results, d, historyStore);
          historyLines.push(...changeSummary(view).map((l) => `since earlier runs: ${l}`));
          return writeReport(d, undefined, { history: view });
        },
        signal,
      });
    } finally {
      progress?.stop();
      for (const r of new Set(runtimes.values())) await r.runtime.close?.();
    }
    printEnd(run.results, run.report);
    for (const line of historyLines) process.stdout.write(`${line}\n`);
    return outcomeExitCode(run.results.outcome);
  });
}

function printEnd(results: CampaignResults, report: string | null): void {
  const scenarioLines = summaryLines(summaryOf(results)).slice(0, -1); // its last line speaks of a merge
  for (const line of scenarioLines) process.stdout.write(`${line}\n`);
  process.stdout.write(`${results.campaign}: ${results.outcome} (${judgedText(results.cycles)})\n`);
  if (results.cyclesPerHour !== null) process.stdout.write(`rate: ${results.cyclesPerHour} ${judgedUnit(results.cycles)} per hour\n`);
  if (report) process.stdout.write(`report: ${report}\n`);
  for (const s of results.scenarios.filter((x) => x.blind)) {
    process.stderr.write(
      `rig: BLIND: the negative control '${s.name}' never reproduced a torn page in ${s.cyclesRun} cycle${s.cyclesRun === 1 ? '' : 's'}, ` +
        'so this run cannot show the rig would see one; the campaign fails. Check the trigger and the atomic unit.\n',
    );
  }
  for (const s of results.scenarios.filter((x) => x.vacuous)) {
    const line = s.failures.find((f) => f.startsWith('vacuous:')) ?? 'vacuous';
    process.stderr.write(`rig: VACUOUS: '${s.name}' passed without exercising its claim; the campaign fails. ${line.replace(/^vacuous: /, '')}\n`);
  }
}

/** `--lanes`, for `rig campaign` and `rig explore`. */
export const LANES_HELP = `explore cycles judge this many crash states at once, each with its own server and disk (default: ${defaultLanes()} on this machine to start, two where there are two cores or more, and more while the cores have room, up to ${mostLanes()}); with more than one, the next explore cycle records its load meanwhile`;

export function register(program: Command): void {
  program
    .command('campaign')
    .description('run every crash cycle of a campaign file; results.json, junit.xml and the HTML report in DIR')
    .argument('<file>', 'campaign file (YAML), e.g. campaigns/quick.yml')
    .option('--out <dir>', 'results folder', 'reports/latest')
    .option('--shard <i/n>', 'run only shard I of N (every N-th cycle); merge the shards with rig merge')
    .option('--resume', 'continue an interrupted run in --out without redoing its finished cycles')
    .option('--cycles <n>', 'cycles per scenario, overriding the file')
    .addOption(new Option('--backend <backend>', "where every scenario's cut happens (disk.backend), overriding the file: fuse, or dm (the kernel's dm-log-writes and dm-flakey)").choices(DISK_BACKENDS))
    .option('--seed <s>', 'campaign seed, overriding the file')
    .option('--evidence-max <size>', 'disk cap for kept evidence, overriding evidence.maxBytes (e.g. 2G)')
    .option('--lanes <n>', LANES_HELP)
    .option('--scenario <name...>', "run only these scenarios of the file (e.g. one finding's hunt)")
    .option('--history [store]', 'file the finished run into the history store (default: history.sqlite in the work dir) and add "Since earlier runs" to its report')
    .action(runAction(campaign));
}
