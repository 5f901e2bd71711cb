/**
 * Stage 5, scan (before recovery): serve the crash image where it is on a loop disk (or, when the
 * recovery's writes are to be recorded, on a power-fail disk with no trigger that adopts it), and
 * before the server touches it: verify every page, read the doublewrite copies and the redo
 * log's checkpoint, map the pending writes to pages, derive the truth per page from content,
 * reconcile the scan with it, describe each torn page with the copies the server would accept (by
 * the rules of the server's flavor), and check the write-ahead order the disk saw
 * (rig/cycle/write-order.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashPlan } from '../../../faults/crash-plan.js';
import type { JournalEntry } from '../../../faults/journal.js';
import type { OrderEvent } from '../../../faults/order-log.js';
import type { DiskEnvironment } from '../../../faults/disk-environment.js';
import type { DiskOptions, PowerFailDisk } from '../../../faults/power-fail-disk.js';
import { startDisk } from '../../../faults/start-disk.js';
import { startLoopDisk, type LoopDisk } from '../../../faults/loop-disk.js';
import { buildExtentMap, readDoublewrite, readUnwrittenDoublewrite, scanDatadir, type DatadirScan, type DoublewriteCopy, type ExtentMap } from '../../pages/index.js';
import { readReducedDoublewrite } from '../../pages/reduced-doublewrite.js';
import { listTablespaceFiles } from '../../pages/tablespace-files.js';
import { readCheckpoint } from '../../pages/redo-checkpoint.js';
import { readRedoFileOps, type RedoFileOps } from '../../pages/redo-file-ops.js';
import type { CycleRecord, PageZeroWrite, Reconciliation, RocksdbWrites, ScenarioSettings, TornPage, TruthCounts, WriteOrderCheck } from '../../results/types.js';
import type { ServerFlavor } from '../../results/server-identity.js';
import type { CleanupStack } from '../cleanup-stack.js';
import type { ScanMemo } from '../scan-memo.js';
import { findCopiesInFlight, findCopiesOverwritten } from '../copies-in-flight.js';
import { diskOptionsFor } from '../disk-options.js';
import type { RecoveryRules } from '../doublewrite-rules.js';
import { countClasses, derivePageTruth, type PageTruth } from '../page-truth.js';
import { addTearsBeyondJournal } from '../tears-beyond-journal.js';
import { pageZeroWrites } from '../page-zero.js';
import { reconcileScan } from '../reconcile.js';
import { rocksdbWrites } from '../rocksdb-writes.js';
import { mapStraddles } from '../straddle-targets.js';
import { DATADIR_NAME, datadirOn } from '../server-dirs.js';
import { describeTornPages } from '../torn-pages.js';
import { checkCrashImageWriteOrder } from '../write-order.js';

export interface CrashScan {
  disk: PowerFailDisk | LoopDisk;
  datadir: string;
  scan: DatadirScan;
  extents: ExtentMap;
  copies: DoublewriteCopy[];
  /** Copies on the device in doublewrite slots the filesystem reads as zeros (MariaDB's ibdata1 area). */
  unwrittenCopies: DoublewriteCopy[];
  checkpointLsn: number | null;
  /** MariaDB 10.8+: the redo log's file operations and page-0 header writes since the checkpoint. */
  fileOps: RedoFileOps | null;
  pagesTouched: TruthCounts;
  /** Every page a pending write touched, with its writes and class: the truth the record summarises. */
  truth: PageTruth[];
  pageZero: PageZeroWrite[];
  reconciliation: Reconciliation;
  torn: TornPage[];
  writeOrder: WriteOrderCheck;
  rocksdb: RocksdbWrites | null; // engine rocksdb only
}

/** The doublewrite copies of each torn page of a known tablespace that pending writes carried or overwrote. */
function copiesPending(pages: readonly PageTruth[], scan: DatadirScan, journal: JournalEntry[], plan: CrashPlan) {
  const torn = pages.filter((p) => p.class === 'torn').map((truth) => ({ truth, space: scan.files.find((f) => f.file === truth.file)?.space ?? null }));
  return { inFlight: findCopiesInFlight(journal, plan, torn), overwritten: findCopiesOverwritten(journal, plan, torn) };
}

export async function scanCrashImage(
  settings: ScenarioSettings,
  crashImage: string,
  journal: JournalEntry[],
  plan: CrashPlan,
  order: OrderEvent[] | null,
  dir: string,
  cleanup: CleanupStack,
  flavor: ServerFlavor,
  environment?: DiskEnvironment,
  explore: {
    /** Every write the recovery makes, so it can be undone: the image is then served by a power-fail
     * disk that records them (moved into DIR). */
    record?: DiskOptions['record'];
    memo?: ScanMemo; // what the scans of earlier states of the same recording found
  } = {},
): Promise<CrashScan> {
  const { record, memo } = explore;
  mkdirSync(dir, { recursive: true });
  // nothing cuts a scan disk: a loop device straight over the image, where it is, serves it in the kernel alone
  const disk = record
    ? await startDisk(diskOptionsFor(settings, dir, { adoptImage: crashImage, record }, environment))
    : await startLoopDisk({ dir, image: crashImage, fs: settings.disk.fs, ...(environment ? { environment } : {}) });
  cleanup.pushDisk('recovery disk', disk);
  const datadir = datadirOn(disk.target);
  const listed = listTablespaceFiles(datadir); // nothing writes to the datadir while it is scanned
  listed.catch(() => undefined); // its failure is each reader's
  const [scan, extents, copies, checkpoint, reduced, fileOps] = await Promise.all([
    scanDatadir(datadir, memo?.verdicts, listed),
    buildExtentMap(disk.target, DATADIR_NAME),
    readDoublewrite(datadir, listed),
    readCheckpoint(datadir),
    flavor === 'mysql' ? readReducedDoublewrite(datadir) : Promise.resolve([]),
    flavor === 'mysql' ? Promise.resolve(null) : readRedoFileOps(datadir, undefined, memo?.redo),
  ]);
  const unwrittenCopies = await readUnwrittenDoublewrite(datadir, disk.record.image, extents, listed);
  // the order log names device offsets: this says which file and offset each one was
  const files = extents.files.map((f) => ({ rel: f.rel, kind: f.kind, pageSize: f.pageSize, firstPage: f.firstPage, extents: f.extents, ...(f.bornUs ? { bornUs: f.bornUs } : {}) }));
  writeFileSync(join(dir, 'extents.json'), JSON.stringify(files) + '\n');
  const rules: RecoveryRules = flavor === 'mysql' ? { flavor, reduced } : { flavor };
  const derived = derivePageTruth(journal, plan, extents, scan.doublewriteArea);
  const pages = addTearsBeyondJournal(derived.pages, scan.invalid, order, journal, extents);
  const truth = { pages, counts: countClasses(pages) };
  const checkpointLsn = checkpoint.checkpoint?.lsn ?? null;
  const writeOrder = await checkCrashImageWriteOrder(datadir, journal, extents, scan.doublewriteArea, order);
  return {
    disk, datadir, scan, extents, copies, unwrittenCopies, checkpointLsn, fileOps,
    pagesTouched: truth.counts,
    truth: truth.pages,
    pageZero: pageZeroWrites(truth.pages),
    reconciliation: reconcileScan(truth.pages, scan),
    torn: describeTornPages(truth.pages, scan, copies, checkpointLsn, copiesPending(truth.pages, scan, journal, plan), rules, unwrittenCopies, fileOps),
    writeOrder,
    rocksdb: settings.server.engine === 'rocksdb' ? rocksdbWrites(plan, extents) : null,
  };
}

/** What the scan before recovery puts in the record, a live cut's or an explore state's alike. */
export function recordScan(record: CycleRecord, scanned: CrashScan, pageSize: number): void {
  const stats = record.cut?.stats;
  if (record.cut && stats?.straddleOffsets) record.cut.straddled = mapStraddles(stats.straddleOffsets, stats.pageWritesStraddling, scanned.extents, pageSize);
  record.pagesTouched = scanned.pagesTouched;
  record.pageZeroWrites = scanned.pageZero;
  record.reconciliation = scanned.reconciliation;
  record.checkpointLsn = scanned.checkpointLsn;
  if (scanned.fileOps) record.redoFileOps = scanned.fileOps;
  record.writeOrder = scanned.writeOrder;
  record.tornPagesBefore = scanned.torn;
  if (scanned.rocksdb) record.rocksdbWrites = scanned.rocksdb;
}
