/**
 * One crash cycle, top to bottom: prepare, load until the cut, materialize the crash image, scan
 * it, recover on it, scan again, judge. Each stage lives in its own module; this function only
 * sequences them, times them, and guarantees teardown. Any failure of the rig itself becomes a
 * `rig-error` record, never a verdict about the database.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contradicts } from '../results/expectation.js';
import { classifyErrorLog, excerptErrorLog, summarizeLog } from '../logs/index.js';
import type { CycleRecord, Expectation, Phase, ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import { buildCrashImage } from '../../faults/crash-image.js';
import { cutSummary } from '../../faults/helper-status.js';
import { readJournal } from '../../faults/journal.js';
import { attributeAfterRecovery } from './attribute.js';
import { CleanupStack } from './cleanup-stack.js';
import { emptyCycleRecord } from './cycle-record.js';
import { judgeCycle } from './judge.js';
import { loadUntilCut, startOnPreparedImage } from './load-until-cut.js';
import { PhaseTimer } from './phase-timer.js';
import { ensurePreparedImage } from './prepared-image.js';
import { mountAndScanCrashImage, recoverServer } from './recover.js';
import { derivePageTruth } from './page-truth.js';
import { describeMismatch, reconcileScan } from './reconcile.js';
import { describeTornPages } from './torn-pages.js';
import { mapStraddles } from './straddle-targets.js';
import { describeExercised } from '../results/exercised.js';
import { isPageFree } from '../pages/page-allocation.js';

export interface CycleInput {
  id: string;
  settings: ScenarioSettings;
  cycle: number;
  seed: number;
  expectation: Expectation;
  dir: string; // this cycle's folder: evidence, cycle.json
  cacheRoot: string; // prepared images
  runtime: ServerRuntime;
  serverVersion: string;
  repro: string; // the command that rebuilds this crash image
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
  try {
    const prepared = await timer.time('prepare', async () => {
      const image = await ensurePreparedImage(settings, input.runtime, input.serverVersion, input.cacheRoot, signal);
      return startOnPreparedImage(settings, input.runtime, image, cutDir, cleanup, signal);
    });
    const cut = await timer.time('load', () => loadUntilCut(prepared, settings, input.seed, cleanup, signal));
    record.cut = cutSummary(cut.status, cut.atMs);
    record.throughput = cut.load.throughput;
    record.ledger = { checked: false, acked: cut.load.ackedCount, missing: 0 };
    const crash = await timer.time('materialize', () => buildCrashImage(cutDir, input.seed, settings.disk.atomicUnit));
    record.crashImageSha256 = crash.sha256;
    record.pendingWrites = crash.plan.writes;
    const journal = readJournal(join(cutDir, 'journal.bin'));
    const scanned = await timer.time('scanBefore', () =>
      mountAndScanCrashImage(settings, crash.path, join(input.dir, 'recover'), cleanup),
    );
    const stats = record.cut.stats;
    if (stats.straddleOffsets) record.cut.straddled = mapStraddles(stats.straddleOffsets, stats.pageWritesStraddling, scanned.extents, settings.server.pageSize);
    const truth = derivePageTruth(journal, crash.plan, scanned.extents, scanned.scan.doublewriteArea);
    record.pagesTouched = truth.counts;
    record.reconciliation = reconcileScan(truth.pages, scanned.scan);
    record.checkpointLsn = scanned.checkpoint.checkpoint?.lsn ?? null;
    const tornBefore = describeTornPages(truth.pages, scanned.scan, scanned.copies, record.checkpointLsn);
    record.tornPagesBefore = tornBefore;
    const recovery = await timer.time('recover', () =>
      recoverServer(settings, input.runtime, scanned, cut.load, cleanup, signal),
    );
    await timer.time('scanAfter', async () => {
      const after = recovery.scanAfter;
      if (after) record.tornPagesBefore = attributeAfterRecovery(tornBefore, after, scanned.datadir);
      record.pagesAfter = (after?.invalid ?? []).map((p) => {
        const pageSize = after!.files.find((f) => f.file === p.file)?.format.pageSize ?? settings.server.pageSize;
        const free = isPageFree(join(scanned.datadir, p.file), p.page, pageSize) === true;
        return { file: p.file, space: p.space, page: p.page, reason: `${p.reason}: ${p.detail}`, ...(free ? { free } : {}) };
      });
    });
    await timer.time('judge', () => {
      writeFileSync(join(input.dir, 'error.log'), recovery.errorLog);
      const events = classifyErrorLog(recovery.errorLog);
      record.errorLog = { excerpt: excerptErrorLog(recovery.errorLog, events), events };
      record.serverStarted = recovery.started;
      record.ledger = recovery.ledger;
      record.checkTable = recovery.checkTable;
      record.invariants = recovery.invariants;
      for (const p of record.tornPagesBefore) if (p.attribution) record.attribution[p.attribution]++;
      record.exercised = describeExercised(record.tornPagesBefore, record.pendingWrites, settings.server.pageSize, settings.disk.atomicUnit);
      const { verdict, reason } = judgeCycle({
        torn: record.tornPagesBefore,
        serverStarted: recovery.started,
        loggedCorruption: summarizeLog(events).counts.corruption > 0,
        ledger: record.ledger,
        checkTable: record.checkTable,
        invariants: record.invariants,
        pagesAfter: record.pagesAfter,
      });
      record.verdict = verdict;
      record.reason = reason;
      if (!record.reconciliation!.ok) {
        record.verdict = 'rig-error';
        record.error = describeMismatch(record.reconciliation!);
        record.reason = `rig error: ${record.error} (the server's outcome would have been ${verdict})`;
      }
    });
  } catch (error) {
    record.verdict = 'rig-error';
    record.error = (error as Error).message ?? String(error);
    record.reason = `rig error: ${record.error}`;
  } finally {
    const problems = await cleanup.releaseAll();
    if (problems.length && record.verdict !== 'rig-error') {
      record.verdict = 'rig-error';
      record.error = `teardown failed: ${problems.join('; ')}`;
      record.reason = `rig error: ${record.error}`;
    }
    rmSync(join(input.dir, 'recover', 'image.img'), { force: true }); // rebuilt from cut/ on demand
  }
  const torn = record.tornPagesBefore.length;
  record.expectationHeld = record.verdict !== 'rig-error' && !contradicts(input.expectation, record.verdict, torn);
  writeFileSync(join(input.dir, 'cycle.json'), JSON.stringify(record, null, 1) + '\n');
  return record;
}
