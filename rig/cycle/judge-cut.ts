/**
 * A live cycle's cut judged again under a plan of one's choosing: the crash image rebuilt from the
 * cut folder (the image at the cut and the journal) with that plan, then the cycle's own later
 * stages: scan, recover, scan after recovery, judge. The recovery is checked against the commits
 * the live load acknowledged (cut/load.json; a cut without it is judged with the ledger check off).
 * Under the cycle's own plan this is the cycle again; under another plan it is the crash state that
 * plan describes: a state built on purpose, a step of a search over fates, another server's view.
 * `scanCut` stops after the scan: what the plan tears and which copies the server's rules accept,
 * without starting a server.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashPlan } from '../../faults/crash-plan.js';
import { loadJournal, type JournalEntry } from '../../faults/journal.js';
import { materializeCrashImage } from '../../faults/materialize.js';
import { ORDER_LOG_FILE, readOrderLog } from '../../faults/order-log.js';
import { startDisk } from '../../faults/start-disk.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { DEFAULT_RECOVERY_BOUNDS } from '../defaults.js';
import { rigFailure } from '../errors.js';
import { LOAD_FILE, readLoadFile } from '../load/load-file.js';
import type { LoadResult } from '../load/index.js';
import { contradicts } from '../results/expectation.js';
import type { CycleRecord, RecoveryBounds, ScenarioSettings } from '../results/types.js';
import { innodbArgs } from '../runtime/server-args.js';
import { serverIdentity, type ServerFlavor } from '../results/server-identity.js';

import type { ServerRuntime } from '../runtime/types.js';
import { CleanupStack } from './cleanup-stack.js';
import { emptyCycleRecord, markRigError } from './cycle-record.js';
import { diskOptionsFor } from './disk-options.js';
import { PhaseTimer } from './phase-timer.js';
import { datadirOn } from './server-dirs.js';
import { judgeRecovery } from './stages/judge.js';
import { recoverServer } from './stages/recover.js';
import { scanAfterRecovery } from './stages/scan-after.js';
import { recordScan, scanCrashImage, type CrashScan } from './stages/scan.js';

/** Changes made on purpose, for checks that hold the oracle to an image it was not built from. */
export interface CrashEdit {
  /** Changes the crash image's datadir (mounted) before the scan sees it. */
  beforeScan?: (datadir: string) => void;
  /** Changes the datadir after the server's clean shutdown, before the scan after recovery. */
  afterRecovery?: (datadir: string) => void;
}

export interface CutInput {
  cycleDir: string; // a cycle's folder: cut/image.img, cut/journal.bin (cycle.json, cut/load.json when there)
  plan: CrashPlan;
  outDir: string; // this judgement's folder: plan.json, crash image while judged, recover/, cycle.json
  settings: ScenarioSettings;
  diskEnvironment?: DiskEnvironment;
}

export interface JudgeCutInput extends CutInput {
  id: string;
  runtime: ServerRuntime;
  bounds?: Partial<RecoveryBounds>;
  edit?: CrashEdit;
  signal?: AbortSignal;
}

/** The load with no acknowledged commits kept: the ledger check is off, the tables' invariants stay. */
const NO_LEDGER: LoadResult = {
  kind: 'builtin', ledger: false, note: 'the cut keeps no record of the acknowledged commits', acked: new Map(), ackedCount: 0, retried: 0,
  bucketMs: 500, throughput: [], errors: [], durationMs: 0, endedBy: 'stopped',
};

const ledgerOf = (cycleDir: string): LoadResult => readLoadFile(join(cycleDir, 'cut', LOAD_FILE)) ?? NO_LEDGER;

/** The live cycle's record, for what the cut itself was (when, how many writes pending). */
function liveRecord(cycleDir: string): CycleRecord | null {
  const path = join(cycleDir, 'cycle.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as CycleRecord) : null;
}

interface Built {
  journal: JournalEntry[];
  image: string;
  sha256: string;
}

async function buildImage(input: CutInput): Promise<Built> {
  const cut = join(input.cycleDir, 'cut');
  for (const file of ['image.img', 'journal.bin']) {
    if (!existsSync(join(cut, file))) throw rigFailure(`${join(cut, file)} is missing: this cycle kept no evidence to rebuild its crash image from`);
  }
  mkdirSync(input.outDir, { recursive: true });
  writeFileSync(join(input.outDir, 'plan.json'), JSON.stringify(input.plan, null, 1) + '\n');
  const journal = loadJournal(join(cut, 'journal.bin'));
  const image = join(input.outDir, 'crash.img');
  const sha256 = await materializeCrashImage(join(cut, 'image.img'), journal, input.plan, image);
  return { journal, image, sha256 };
}

async function applyEdit(input: CutInput, image: string, edit: (datadir: string) => void): Promise<string> {
  const disk = await startDisk(diskOptionsFor(input.settings, join(input.outDir, 'edit'), { adoptImage: image }, input.diskEnvironment));
  try {
    edit(datadirOn(disk.target));
  } finally {
    const down = await disk.down();
    if (down.problems.length) throw rigFailure(`the edit's disk did not come down cleanly: ${down.problems.join('; ')}`);
  }
  return join(input.outDir, 'edit', 'image.img');
}

async function scan(input: CutInput, built: Built, flavor: ServerFlavor, cleanup: CleanupStack, edit?: CrashEdit): Promise<CrashScan> {
  const image = edit?.beforeScan ? await applyEdit(input, built.image, edit.beforeScan) : built.image;
  const order = readOrderLog(join(input.cycleDir, 'cut', ORDER_LOG_FILE));
  return scanCrashImage(input.settings, image, built.journal, input.plan, order, join(input.outDir, 'recover'), cleanup, flavor, input.diskEnvironment);
}

/** What the plan's crash image holds, as the scan before recovery sees it; no server runs. */
export async function scanCut(input: CutInput, flavor: ServerFlavor): Promise<Pick<CrashScan, 'torn' | 'truth' | 'reconciliation' | 'checkpointLsn'>> {
  const cleanup = new CleanupStack();
  try {
    const scanned = await scan(input, await buildImage(input), flavor, cleanup);
    return { torn: scanned.torn, truth: scanned.truth, reconciliation: scanned.reconciliation, checkpointLsn: scanned.checkpointLsn };
  } finally {
    const problems = await cleanup.releaseAll();
    rmSync(input.outDir, { recursive: true, force: true });
    if (problems.length) throw rigFailure(`the scan's teardown failed: ${problems.join('; ')}`);
  }
}

/** The plan's crash state judged as a live cycle's is; the record goes to outDir/cycle.json too. */
export async function judgeCut(input: JudgeCutInput): Promise<{ record: CycleRecord; teardownProblems: string[] }> {
  const { settings } = input;
  const live = liveRecord(input.cycleDir);
  const record = emptyCycleRecord(input.id, settings, live?.cycle ?? 1, input.plan.seed, settings.expect);
  record.cut = live?.cut ?? null;
  record.throughput = live?.throughput ?? [];
  record.pendingWrites = input.plan.writes;
  const timer = new PhaseTimer(record.timings);
  const cleanup = new CleanupStack();
  let teardownProblems: string[] = [];
  try {
    const { server, version } = await input.runtime.describe();
    const identity = serverIdentity(`${server} ${version}`);
    record.server = { version: `${server} ${version}`, innodb: innodbArgs(settings.server, identity) };
    const built = await timer.time('materialize', () => buildImage(input));
    record.crashImageSha256 = built.sha256;
    const scanned = await timer.time('scanBefore', () => scan(input, built, identity.flavor, cleanup, input.edit));
    recordScan(record, scanned, settings.server.pageSize);
    const load = ledgerOf(input.cycleDir);
    record.ledger = { checked: false, acked: load.ackedCount, missing: 0 };
    const bounds = { ...DEFAULT_RECOVERY_BOUNDS, ...input.bounds };
    const recovery = await timer.time('recover', () => recoverServer(settings, input.runtime, scanned, load, cleanup, bounds, input.signal));
    if (input.edit?.afterRecovery && recovery.run.shutdown === 'clean') input.edit.afterRecovery(scanned.datadir);
    const after = await timer.time('scanAfter', () => scanAfterRecovery(scanned.datadir, recovery.run, scanned.torn));
    await timer.time('judge', () => judgeRecovery(record, input.outDir, scanned, recovery, after));
  } catch (error) {
    markRigError(record, error);
  } finally {
    teardownProblems = await cleanup.releaseAll();
    if (teardownProblems.length && record.verdict !== 'rig-error') markRigError(record, teardownProblems);
    for (const image of ['crash.img', 'recover/image.img', 'edit/image.img']) rmSync(join(input.outDir, image), { force: true });
  }
  record.expectationHeld = record.verdict !== 'rig-error' && !contradicts(record.expectation, record.verdict, record.tornPagesBefore.length);
  writeFileSync(join(input.outDir, 'cycle.json'), JSON.stringify(record, null, 1) + '\n');
  return { record, teardownProblems };
}
