/**
 * Stage 5, scan (before recovery): serve the crash image on a fresh power-fail disk (no trigger),
 * and before the server touches it: verify every page, read the doublewrite copies and the redo
 * log's checkpoint, map the pending writes to pages, derive the truth per page from content,
 * reconcile the scan with it, and describe each torn page with the copies the server would accept.
 */
import { mkdirSync } from 'node:fs';
import type { CrashPlan } from '../../../faults/crash-plan.js';
import type { JournalEntry } from '../../../faults/journal.js';
import { startDisk, type PowerFailDisk } from '../../../faults/power-fail-disk.js';
import { buildExtentMap, readDoublewrite, scanDatadir, type DatadirScan, type DoublewriteCopy, type ExtentMap } from '../../pages/index.js';
import { readCheckpoint } from '../../pages/redo-checkpoint.js';
import type { PageZeroWrite, Reconciliation, ScenarioSettings, TornPage, TruthCounts } from '../../results/types.js';
import type { CleanupStack } from '../cleanup-stack.js';
import { findCopiesInFlight } from '../copies-in-flight.js';
import { diskOptionsFor } from '../disk-options.js';
import { derivePageTruth, type PageTruth } from '../page-truth.js';
import { pageZeroWrites } from '../page-zero.js';
import { reconcileScan } from '../reconcile.js';
import { DATADIR_NAME, datadirOn } from '../server-dirs.js';
import { describeTornPages } from '../torn-pages.js';

export interface CrashScan {
  disk: PowerFailDisk;
  datadir: string;
  scan: DatadirScan;
  extents: ExtentMap;
  copies: DoublewriteCopy[];
  checkpointLsn: number | null;
  pagesTouched: TruthCounts;
  pageZero: PageZeroWrite[];
  reconciliation: Reconciliation;
  torn: TornPage[];
}

/** The unflushed doublewrite copies of each torn page of a known tablespace. */
function copiesInFlight(pages: readonly PageTruth[], scan: DatadirScan, journal: JournalEntry[], plan: CrashPlan) {
  const torn = pages.filter((p) => p.class === 'torn').map((truth) => ({ truth, file: scan.files.find((f) => f.file === truth.file) }));
  const pageSize = torn.find((t) => t.file)?.file?.format.pageSize;
  if (pageSize === undefined) return new Map();
  return findCopiesInFlight(journal, plan, torn.map(({ truth, file }) => ({ truth, space: file?.space ?? null })), pageSize);
}

export async function scanCrashImage(
  settings: ScenarioSettings,
  crashImage: string,
  journal: JournalEntry[],
  plan: CrashPlan,
  dir: string,
  cleanup: CleanupStack,
): Promise<CrashScan> {
  mkdirSync(dir, { recursive: true });
  const disk = await startDisk(diskOptionsFor(settings, dir, { adoptImage: crashImage }));
  cleanup.pushDisk('recovery disk', disk);
  const datadir = datadirOn(disk.target);
  const [scan, extents, copies, checkpoint] = await Promise.all([
    scanDatadir(datadir),
    buildExtentMap(disk.target, DATADIR_NAME),
    readDoublewrite(datadir),
    readCheckpoint(datadir),
  ]);
  const truth = derivePageTruth(journal, plan, extents, scan.doublewriteArea);
  const checkpointLsn = checkpoint.checkpoint?.lsn ?? null;
  return {
    disk, datadir, scan, extents, copies, checkpointLsn,
    pagesTouched: truth.counts,
    pageZero: pageZeroWrites(truth.pages),
    reconciliation: reconcileScan(truth.pages, scan),
    torn: describeTornPages(truth.pages, scan, copies, checkpointLsn, copiesInFlight(truth.pages, scan, journal, plan)),
  };
}
