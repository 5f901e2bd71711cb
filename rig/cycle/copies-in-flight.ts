/**
 * Doublewrite copies that were still in flight at the cut: a pending write (unflushed, so issued
 * after the disk's last completed flush) that carries an image of a torn page with the same space
 * id, page number and LSN as the page's newest version, other than the page's own home writes.
 *
 * The doublewrite protocol needs the copy durable before the home write starts. A home write that
 * is itself pending and came after its copy's write, with both unflushed, was issued with no flush
 * between them: the order the protocol forbids, observed at the device (MariaDB 10.11 with
 * innodb_flush_method=O_DIRECT_NO_FSYNC does this, MDEV-33545). Content only: the page images are
 * found by their headers at every sector of each write. A doublewrite batch lays its images out
 * at page-size steps, but the block layer splits a large batch into requests of its own size
 * (MySQL's 1 MiB batches arrive as writes of 568 KiB and so on), so a request can start in the
 * middle of an image: the later images of that request sit half a page off its start. An image
 * cut by such a split is counted with the request that holds its header.
 *
 * The protocol also needs the home write durable before the copy's slot is written again. A
 * pending write whose overwritten bytes held a torn page's newest version, other than a home write
 * of it, replaced a copy written before it; when it came after a home write of the
 * page, with both unflushed, the slot was reused before that home write was durable (MariaDB 10.11
 * with O_DIRECT_NO_FSYNC starts the next batch once the home writes complete, with no flush).
 */
import type { CrashPlan } from '../../faults/crash-plan.js';
import type { JournalEntry } from '../../faults/journal.js';
import { FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, readLsn, readU32 } from '../pages/page-format.js';
import type { CopyInFlight, CopyOverwritten } from '../results/types.js';
import type { PageTruth } from './page-truth.js';

export const inFlightKey = (space: number, page: number): string => `${space}:${page}`;

/** Every write starts and ends on a sector: an image's header, if it is in a write, starts on one. */
const SECTOR = 512;
/** The header fields read: page number (4), LSN (16) and space id (34). */
const HEADER_BYTES = FIL_PAGE_SPACE_ID + 4;

interface Wanted {
  lsn: number;
  homeSeqs: readonly number[];
}

type Torn = readonly { truth: PageTruth; space: number | null }[];

/**
 * Each pending write, other than a page's home writes, whose `side` bytes (brought or overwritten)
 * hold an image of a torn page's newest version, by the page's key.
 */
function imagesOfNewest(journal: readonly JournalEntry[], torn: Torn, side: 'new' | 'old'): Map<string, { seq: number; want: Wanted }[]> {
  const wanted = new Map<string, Wanted>();
  const pages = new Set<number>(); // their page numbers: a sector's key is made only for one of these
  for (const { truth, space } of torn) {
    if (space === null || truth.newestLsn === null) continue;
    wanted.set(inFlightKey(space, truth.page), { lsn: truth.newestLsn, homeSeqs: truth.writeSeqs });
    pages.add(truth.page);
  }
  const found = new Map<string, { seq: number; want: Wanted }[]>();
  if (!wanted.size) return found;
  // every sector of every pending write is looked at, its header read in place
  for (const entry of journal) {
    const bytes = entry[side];
    for (let at = 0; at + HEADER_BYTES <= bytes.length; at += SECTOR) {
      const page = readU32(bytes, at + FIL_PAGE_OFFSET);
      if (!pages.has(page)) continue;
      const key = inFlightKey(readU32(bytes, at + FIL_PAGE_SPACE_ID), page);
      const want = wanted.get(key);
      if (!want || want.homeSeqs.includes(entry.seq) || readLsn(bytes, at + FIL_PAGE_LSN) !== want.lsn) continue;
      found.set(key, [...(found.get(key) ?? []), { seq: entry.seq, want }]);
    }
  }
  return found;
}

function byKey<T>(found: Map<string, { seq: number; want: Wanted }[]>, make: (seq: number, want: Wanted) => T): Map<string, T[]> {
  return new Map([...found].map(([key, hits]) => [key, hits.map((h) => make(h.seq, h.want))]));
}

/**
 * For each torn page (by space id and page number), the pending writes that carried a copy of its
 * newest version, with their fates and whether a home write of the page came after them.
 */
export function findCopiesInFlight(journal: readonly JournalEntry[], plan: CrashPlan, torn: Torn): Map<string, CopyInFlight[]> {
  const fates = new Map(plan.writes.map((w) => [w.seq, w.fate]));
  return byKey(imagesOfNewest(journal, torn, 'new'), (seq, want) => ({
    seq,
    fate: fates.get(seq) ?? 'landed',
    beforeHomeWrite: want.homeSeqs.some((home) => home > seq),
  }));
}

/**
 * For each torn page, the pending writes that overwrote a copy of its newest version, with their
 * fates and whether they came after a home write of the page.
 */
export function findCopiesOverwritten(journal: readonly JournalEntry[], plan: CrashPlan, torn: Torn): Map<string, CopyOverwritten[]> {
  const fates = new Map(plan.writes.map((w) => [w.seq, w.fate]));
  return byKey(imagesOfNewest(journal, torn, 'old'), (seq, want) => ({
    seq,
    fate: fates.get(seq) ?? 'landed',
    afterHomeWrite: want.homeSeqs.some((home) => home < seq),
  }));
}
