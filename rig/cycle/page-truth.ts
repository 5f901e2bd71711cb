/**
 * Ground truth, page by page, from content: for every tablespace page that any write pending at
 * the cut touched, which bytes of the crash image came from which version of that page, and
 * whether the result is a page the server ever wrote whole.
 *
 * The versions of a page: its durable content (every pending write rolled back, each byte taking
 * the bytes the first pending write over it overwrote), then the content after each pending write
 * in arrival order. A version counts as whole once the writes since the last whole version cover
 * the entire page (a page the block layer split over two requests is whole only after both) and,
 * for a page that repeats its LSN at its end, both copies of the LSN agree (endLsnAt). The
 * crash image's bytes follow the plan (a landed unit of a later write wins). A page is torn when
 * its crash content equals no whole version: units from versions that differ. Pages in extents
 * the crash image still marks unwritten read as zeros, and pages of the doublewrite area are
 * copies: both are classified apart, never judged as live pages.
 */
import type { CrashPlan } from '../../faults/crash-plan.js';
import { unitSpan } from '../../faults/crash-plan.js';
import type { JournalEntry } from '../../faults/journal.js';
import { mapRangeToPages, type ExtentMap } from '../pages/index.js';
import { inDoublewriteArea, type DoublewriteArea } from '../pages/doublewrite-area.js';
import { FIL_PAGE_LSN, FIL_PAGE_TYPE, pageContentDigest, readLsn } from '../pages/page-format.js';

export type PageClass = 'torn' | 'whole' | 'unwritten' | 'doublewrite-area';

export interface PageTruth {
  file: string;
  page: number;
  class: PageClass;
  /** Pending writes that touched the page, in arrival order (their journal seqs). */
  writeSeqs: number[];
  /** Per atomic-unit piece of the touched bytes, in page order: true = holds the newest version. */
  unitsNew: boolean[];
  /** LSN in the header of the durable version and of the newest version written before the cut. */
  durableLsn: number | null;
  newestLsn: number | null;
  /** pageContentDigest of the newest version, when the pending writes covered the whole page. */
  newestDigest?: string;
  /** FIL_PAGE_TYPE of the newest version, when the pending writes covered its header. */
  newestType?: number;
  /** Torn by the order log's evidence that it reached the disk in pieces (tears-beyond-journal.ts). */
  inPieces?: InPieces;
  /** Torn by the crash image's extent map: this many bytes read as zeros from an unwritten extent. */
  partlyUnwritten?: { unwrittenBytes: number };
}

export interface InPieces {
  lastWriters: number[]; // the durable writes its bytes came from last, by seq
  partialWrites: number[]; // writes of the window that carried only part of it
  bytesBeforeWindow: boolean; // some durable bytes are older than the log's window
}

export interface TruthSummary {
  pages: PageTruth[];
  counts: Record<PageClass, number>;
}

interface Piece {
  write: number; // index in the journal
  pageOffset: number;
  length: number;
  deviceOffset: number;
}

interface TouchedPage {
  file: string;
  page: number;
  pageSize: number;
  unwritten: boolean;
  doublewriteArea: boolean;
  pieces: Piece[];
}

function collectTouchedPages(journal: JournalEntry[], map: ExtentMap, area: DoublewriteArea | null): TouchedPage[] {
  const pages = new Map<string, TouchedPage>();
  const pageSizes = new Map(map.files.map((f) => [f.rel, f.pageSize]));
  journal.forEach((entry, write) => {
    for (const hit of mapRangeToPages(map, entry.offset, entry.length)) {
      if (hit.page === null || hit.kind === null || hit.kind === 'dblwr') continue;
      const key = `${hit.file}#${hit.page}`;
      let slot = pages.get(key);
      if (!slot) {
        const inArea = hit.kind === 'system' && hit.file === './ibdata1' && inDoublewriteArea(area, hit.page);
        slot = { file: hit.file, page: hit.page, pageSize: pageSizes.get(hit.file)!, unwritten: false, doublewriteArea: inArea, pieces: [] };
        pages.set(key, slot);
      }
      slot.unwritten ||= hit.unwritten;
      slot.pieces.push({ write, pageOffset: hit.pageOffset, length: hit.length, deviceOffset: hit.deviceOffset });
    }
  });
  return [...pages.values()];
}

/** Splits a piece at the device's atomic-unit boundaries; each part says whether its unit landed. */
function unitParts(piece: Piece, entry: JournalEntry, landed: ReadonlySet<number>, unit: number) {
  const { first } = unitSpan(entry.offset, entry.length, unit);
  const parts: Array<{ pageOffset: number; length: number; from: number; landed: boolean }> = [];
  for (let dev = piece.deviceOffset; dev < piece.deviceOffset + piece.length; ) {
    const unitIndex = Math.floor(dev / unit);
    const end = Math.min(piece.deviceOffset + piece.length, (unitIndex + 1) * unit);
    parts.push({ pageOffset: piece.pageOffset + (dev - piece.deviceOffset), length: end - dev, from: dev - entry.offset, landed: landed.has(unitIndex - first) });
    dev = end;
  }
  return parts;
}

/** A page's working buffers, one set per page size, reused page after page (judgePage is synchronous). */
interface PageBuffers {
  covered: Uint8Array; // bytes some pending write touched
  durable: Buffer;
  crash: Buffer;
  current: Buffer;
  sinceWhole: Uint8Array; // bytes written since the last whole version
}
const buffers = new Map<number, PageBuffers>();

function pageBuffers(ps: number): PageBuffers {
  let b = buffers.get(ps);
  if (!b) {
    b = { covered: new Uint8Array(ps), durable: Buffer.alloc(ps), crash: Buffer.alloc(ps), current: Buffer.alloc(ps), sinceWhole: new Uint8Array(ps) };
    buffers.set(ps, b);
  }
  b.covered.fill(0);
  b.durable.fill(0);
  b.sinceWhole.fill(0);
  return b;
}

function judgePage(touched: TouchedPage, journal: JournalEntry[], plan: CrashPlan, landedSets: ReadonlySet<number>[]): PageTruth {
  const ps = touched.pageSize;
  const { covered, durable, crash, current, sinceWhole } = pageBuffers(ps);
  for (const p of touched.pieces) {
    const entry = journal[p.write]!;
    const from = p.deviceOffset - entry.offset;
    const [a, b] = [p.pageOffset, p.pageOffset + p.length];
    if (!within(covered.indexOf(1, a), a, b)) {
      covered.fill(1, a, b); // no byte of it seen before: all of it from this write's old bytes
      entry.old.copy(durable, a, from, from + p.length);
      continue;
    }
    for (let i = 0; i < p.length; i++) {
      if (covered[a + i]) continue;
      covered[a + i] = 1;
      durable[a + i] = entry.old[from + i]!;
    }
  }
  durable.copy(crash);
  durable.copy(current);
  const byWrite = groupByWrite(touched.pieces);
  // the crash content first: the landed units over the durable bytes, later writes winning
  const parts: Array<{ pageOffset: number; length: number; write: number }> = [];
  for (const [write, pieces] of byWrite) {
    const entry = journal[write]!;
    for (const p of pieces) {
      for (const part of unitParts(p, entry, landedSets[write]!, plan.atomicUnit)) {
        parts.push({ pageOffset: part.pageOffset, length: part.length, write });
        if (part.landed) entry.new.copy(crash, part.pageOffset, part.from, part.from + part.length);
      }
    }
  }
  // then the versions in arrival order: torn unless the crash content is one that was whole
  let torn = !durable.equals(crash);
  let sinceWholeCount = 0;
  const endLsn = endLsnAt(durable, covered, ps);
  for (const [write, pieces] of byWrite) {
    const entry = journal[write]!;
    for (const p of pieces) {
      const from = p.deviceOffset - entry.offset;
      entry.new.copy(current, p.pageOffset, from, from + p.length);
      sinceWholeCount += mark(sinceWhole, p.pageOffset, p.pageOffset + p.length);
    }
    if (sinceWholeCount === ps && (endLsn === null || endLsnAgrees(current, endLsn))) {
      if (torn && current.equals(crash)) torn = false;
      sinceWhole.fill(0);
      sinceWholeCount = 0;
    }
  }
  const lsnOf = (buf: Buffer) => (covered[FIL_PAGE_LSN] && covered[FIL_PAGE_LSN + 7] ? readLsn(buf, FIL_PAGE_LSN) : null);
  return {
    file: touched.file,
    page: touched.page,
    class: touched.doublewriteArea ? 'doublewrite-area' : touched.unwritten ? 'unwritten' : torn ? 'torn' : 'whole',
    writeSeqs: [...byWrite.keys()].map((w) => journal[w]!.seq),
    unitsNew: unitPieces(parts).map(([at, length]) => current.subarray(at, at + length).equals(crash.subarray(at, at + length))),
    durableLsn: lsnOf(durable),
    newestLsn: lsnOf(current),
    ...(covered.indexOf(0) === -1 ? { newestDigest: pageContentDigest(current) } : {}),
    ...(covered[FIL_PAGE_TYPE] && covered[FIL_PAGE_TYPE + 1] ? { newestType: current.readUInt16BE(FIL_PAGE_TYPE) } : {}),
  };
}

const within = (at: number, from: number, to: number) => at >= from && at < to;

/**
 * Where the page repeats the low 32 bits of its header LSN near its end (full_crc32: 8 bytes from
 * the end; the older formats: 4), read from its durable content; null when that content does not
 * show it (bytes not covered, no LSN, or a format without the copy, such as compressed pages).
 * Writes that cover a page since its last whole version make a whole version only if both copies
 * agree: buffered writeback can send half a page from one version and, after the server wrote the
 * page again, the other half from the next, and those two halves cover the page without being one.
 * What this cannot tell: a page whose two ends agree while a block between them was last written
 * from yet another version (three writeback runs across two rewrites of the page); no byte of the
 * middle names its version. Seeded writeback sequences meet it about once in 10,000
 * (test/cycle/page-truth.test.ts).
 */
function endLsnAt(durable: Buffer, covered: Uint8Array, ps: number): number | null {
  if (!covered[FIL_PAGE_LSN] || !covered[FIL_PAGE_LSN + 7] || !covered[ps - 8] || !covered[ps - 1]) return null;
  const low = durable.readUInt32BE(FIL_PAGE_LSN + 4);
  if (low === 0) return null;
  for (const back of [8, 4]) if (durable.readUInt32BE(ps - back) === low) return ps - back;
  return null;
}

const endLsnAgrees = (page: Buffer, at: number) => page.readUInt32BE(FIL_PAGE_LSN + 4) === page.readUInt32BE(at);

/** Sets marks[from, to) and says how many were not set before. */
function mark(marks: Uint8Array, from: number, to: number): number {
  if (!within(marks.indexOf(1, from), from, to)) {
    marks.fill(1, from, to);
    return to - from;
  }
  if (!within(marks.indexOf(0, from), from, to)) return 0;
  let n = 0;
  for (let i = from; i < to; i++) if (!marks[i]) (marks[i] = 1), n++;
  return n;
}

function groupByWrite(pieces: Piece[]): Map<number, Piece[]> {
  const byWrite = new Map<number, Piece[]>();
  for (const p of [...pieces].sort((a, b) => a.write - b.write)) {
    const list = byWrite.get(p.write) ?? [];
    list.push(p);
    byWrite.set(p.write, list);
  }
  return byWrite;
}

/**
 * The touched bytes cut at every unit boundary any write's parts fell on, in page order, as
 * [offset, length]: one piece per atomic unit when every write covered whole units.
 */
function unitPieces(parts: Array<{ pageOffset: number; length: number }>): Array<[number, number]> {
  const cuts = [...new Set(parts.flatMap((p) => [p.pageOffset, p.pageOffset + p.length]))].sort((a, b) => a - b);
  const pieces: Array<[number, number]> = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [from, to] = [cuts[i]!, cuts[i + 1]!];
    if (parts.some((p) => p.pageOffset <= from && p.pageOffset + p.length >= to)) pieces.push([from, to - from]);
  }
  return pieces;
}

/** How many pages of each class. */
export function countClasses(pages: readonly PageTruth[]): Record<PageClass, number> {
  const counts: Record<PageClass, number> = { torn: 0, whole: 0, unwritten: 0, 'doublewrite-area': 0 };
  for (const p of pages) counts[p.class]++;
  return counts;
}

export function derivePageTruth(
  journal: JournalEntry[],
  plan: CrashPlan,
  map: ExtentMap,
  doublewriteArea: DoublewriteArea | null,
): TruthSummary {
  const landedSets = plan.writes.map((w) => new Set(w.unitsLanded));
  const pages = collectTouchedPages(journal, map, doublewriteArea).map((t) => judgePage(t, journal, plan, landedSets));
  return { pages, counts: countClasses(pages) };
}
