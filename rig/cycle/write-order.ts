/**
 * The write-ahead order at the device, from content. A checkpoint says every page change below its
 * LSN is on durable storage; so a checkpoint that was durable before the cut while a tablespace
 * page's version older than it was still pending (unflushed) means a change the checkpoint covers
 * was not durable when the checkpoint was. For each pending write carrying a page's LSN field:
 * the LSN of the version it writes and of the page's durable version (every pending write undone);
 * a pending LSN below the durable checkpoint LSN and above the durable page's LSN is a violation.
 *
 * This is what the device received, not who reordered it: the server may have issued the page
 * write after the flush that preceded its checkpoint, or the page cache or the disk path may have
 * delivered it late. It is evidence beside the verdict, never a verdict of its own. Pages of the
 * doublewrite area and doublewrite files hold copies, not live pages: they are not checked.
 */
import { join } from 'node:path';
import type { JournalEntry } from '../../faults/journal.js';
import type { OrderEvent } from '../../faults/order-log.js';
import { mapRangeToPages, type ExtentMap } from '../pages/index.js';
import { inDoublewriteArea, type DoublewriteArea } from '../pages/doublewrite-area.js';
import { isPageFree } from '../pages/page-allocation.js';
import { FIL_PAGE_LSN, readLsn } from '../pages/page-format.js';
import { readCheckpoint } from '../pages/redo-checkpoint.js';
import type { WriteOrderCheck, WriteOrderViolation } from '../results/types.js';
import { describeDeviceOrder, REDO_LOG, withArrival } from './device-order.js';
import { durableFileBytes } from './durable-bytes.js';

/** Violations listed in the record; the count covers them all. */
export const MAX_LISTED_VIOLATIONS = 64;

export interface WriteOrderInput {
  journal: readonly JournalEntry[];
  map: ExtentMap;
  doublewriteArea: DoublewriteArea | null;
  /** The checkpoint LSN durable before the cut, or why it is unknown. */
  checkpoint: { lsn: number } | { lsn: null; why: string };
  /** Whether the crash image's extent descriptors mark the page free; null when they cannot tell. */
  isFree?: (file: string, page: number) => boolean | null;
}

interface PageVersions {
  file: string;
  page: number;
  durableLsn: number; // from the first pending write over the LSN field; 0 in an unwritten extent (reads as zeros)
  unwritten: boolean;
  writes: Array<{ seq: number; offset: number; length: number; lsn: number }>;
}

const LSN_END = FIL_PAGE_LSN + 8;

/** Per live tablespace page, the pending writes that carry its whole LSN field, in arrival order. */
function pendingVersions(journal: readonly JournalEntry[], map: ExtentMap, area: DoublewriteArea | null): PageVersions[] {
  const pages = new Map<string, PageVersions>();
  for (const entry of journal) {
    for (const hit of mapRangeToPages(map, entry.offset, entry.length)) {
      if (hit.page === null || hit.kind === null || hit.kind === 'dblwr') continue;
      if (hit.kind === 'system' && inDoublewriteArea(area, hit.page)) continue;
      if (hit.pageOffset > FIL_PAGE_LSN || hit.pageOffset + hit.length < LSN_END) continue;
      const at = hit.deviceOffset - entry.offset + (FIL_PAGE_LSN - hit.pageOffset);
      const key = `${hit.file}#${hit.page}`;
      let slot = pages.get(key);
      if (!slot) {
        const durableLsn = hit.unwritten ? 0 : readLsn(entry.old, at);
        slot = { file: hit.file, page: hit.page, durableLsn, unwritten: hit.unwritten, writes: [] };
        pages.set(key, slot);
      }
      slot.writes.push({ seq: entry.seq, offset: entry.offset, length: entry.length, lsn: readLsn(entry.new, at) });
    }
  }
  return [...pages.values()];
}

/** The page's newest pending version the checkpoint covered, when it is newer than the durable one. */
function violationOf(p: PageVersions, checkpointLsn: number, isFree: WriteOrderInput['isFree']): WriteOrderViolation | null {
  const durable = p.durableLsn;
  const covered = p.writes.filter((w) => w.lsn < checkpointLsn && w.lsn > durable);
  if (covered.length === 0) return null;
  const newest = covered.reduce((a, b) => (b.lsn > a.lsn ? b : a));
  const free = isFree ? isFree(p.file, p.page) : null;
  return {
    file: p.file,
    page: p.page,
    durableLsn: durable,
    pendingLsn: newest.lsn,
    seq: newest.seq,
    offset: newest.offset,
    length: newest.length,
    coveredWrites: covered.length,
    free,
    ...(p.unwritten ? { unwritten: true } : {}),
  };
}

export function checkWriteOrder(input: WriteOrderInput): WriteOrderCheck {
  const versions = pendingVersions(input.journal, input.map, input.doublewriteArea);
  const pendingVersionCount = versions.reduce((n, p) => n + p.writes.length, 0);
  const { checkpoint } = input;
  if (checkpoint.lsn === null) {
    return { checkpointLsn: null, why: checkpoint.why, pagesChecked: versions.length, pendingVersions: pendingVersionCount, violationCount: 0, violations: [] };
  }
  const violations = versions
    .map((p) => violationOf(p, checkpoint.lsn, input.isFree))
    .filter((v): v is WriteOrderViolation => v !== null)
    .sort((a, b) => a.seq - b.seq || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.page - b.page));
  return {
    checkpointLsn: checkpoint.lsn,
    pagesChecked: versions.length,
    pendingVersions: pendingVersionCount,
    violationCount: violations.length,
    violations: violations.slice(0, MAX_LISTED_VIOLATIONS),
  };
}

/**
 * The check on a mounted crash image: the checkpoint read from the redo log's header (MariaDB's
 * ib_logfile0, or the newest over MySQL's #innodb_redo files) with every pending write undone, free pages from the image's extent descriptors, and the disk's order log
 * (null when it kept none) for when things reached the disk.
 */
export async function checkCrashImageWriteOrder(
  datadir: string,
  journal: readonly JournalEntry[],
  map: ExtentMap,
  doublewriteArea: DoublewriteArea | null,
  order: readonly OrderEvent[] | null,
): Promise<WriteOrderCheck> {
  const read = await readCheckpoint(datadir, (rel, bytes) => durableFileBytes(journal, map, rel, 0, bytes));
  const pageSizes = new Map(map.files.map((f) => [f.rel, f.pageSize] as const));
  const firstPages = new Map(map.files.map((f) => [f.rel, f.firstPage] as const));
  const checked = checkWriteOrder({
    journal, map, doublewriteArea,
    checkpoint: read.checkpoint ? { lsn: read.checkpoint.lsn } : { lsn: null, why: read.why },
    isFree: (file, page) => (firstPages.get(file) === 0 ? isPageFree(join(datadir, file), page, pageSizes.get(file)!) : null),
  });
  if (!order) return checked;
  const device = describeDeviceOrder(order, map, read.checkpoint ? { rel: read.checkpoint.file ? `./${read.checkpoint.file}` : REDO_LOG, block: read.checkpoint.block } : null);
  return { ...checked, violations: withArrival(checked.violations, order), device };
}
