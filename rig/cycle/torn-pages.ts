/**
 * Ground truth: which tablespace pages the crash image holds torn. A page is torn when one pending
 * write covered it and, of the atomic units of that page which the write changed, some landed and
 * some did not. Device ranges become (file, page) through the crash image's extents (FIEMAP).
 * Pages in the system tablespace's doublewrite area are copies, not live pages, and are left out;
 * so are pages in extents the crash image's filesystem still marks unwritten: whatever reached the
 * device there, the file reads as zeros (the extent's conversion was itself lost with the cut).
 */
import type { CrashPlan } from '../../faults/crash-plan.js';
import { unitSpan } from '../../faults/crash-plan.js';
import type { JournalEntry } from '../../faults/journal.js';
import { mapRangeToPages, type ExtentMap, type PageHit } from '../pages/index.js';
import { inDoublewriteArea, type DoublewriteArea } from '../pages/doublewrite-area.js';

export interface TornPageTruth {
  file: string;
  page: number;
  unitsNew: boolean[]; // per atomic unit of the page the write changed, in page order
  oldLsn: bigint; // LSN of the page version that was overwritten
  newLsn: bigint; // LSN of the version that tore
  writeSeq: number;
}

interface UnitPiece {
  pageOffset: number;
  landed: boolean;
  changed: boolean;
}

function lsnAt(bytes: Buffer, at: number): bigint {
  return at >= 0 && at + 24 <= bytes.length ? bytes.readBigUInt64BE(at + 16) : 0n;
}

function piecesOf(hit: PageHit, entry: JournalEntry, landed: Set<number>, unit: number): UnitPiece[] {
  const { first } = unitSpan(entry.offset, entry.length, unit);
  const pieces: UnitPiece[] = [];
  for (let dev = hit.deviceOffset; dev < hit.deviceOffset + hit.length; ) {
    const unitIndex = Math.floor(dev / unit);
    const end = Math.min(hit.deviceOffset + hit.length, (unitIndex + 1) * unit);
    const a = dev - entry.offset;
    const b = end - entry.offset;
    pieces.push({
      pageOffset: hit.pageOffset + (dev - hit.deviceOffset),
      landed: landed.has(unitIndex - first),
      changed: !entry.old.subarray(a, b).equals(entry.new.subarray(a, b)),
    });
    dev = end;
  }
  return pieces;
}

export function findTornPages(
  journal: JournalEntry[],
  plan: CrashPlan,
  map: ExtentMap,
  doublewriteArea: DoublewriteArea | null,
): TornPageTruth[] {
  const torn: TornPageTruth[] = [];
  plan.writes.forEach((w, i) => {
    if (w.fate !== 'torn') return;
    const entry = journal[i]!;
    const landed = new Set(w.unitsLanded);
    const byPage = new Map<string, { file: string; page: number; pieces: UnitPiece[]; start: number; unwritten: boolean }>();
    for (const hit of mapRangeToPages(map, entry.offset, entry.length)) {
      if (hit.page === null || hit.kind === null || hit.kind === 'dblwr') continue;
      if (hit.kind === 'system' && hit.file === './ibdata1' && inDoublewriteArea(doublewriteArea, hit.page)) continue;
      const key = `${hit.file}#${hit.page}`;
      const slot = byPage.get(key) ?? { file: hit.file, page: hit.page, pieces: [], start: -1, unwritten: false };
      slot.unwritten ||= hit.unwritten;
      if (hit.pageOffset === 0) slot.start = hit.deviceOffset;
      slot.pieces.push(...piecesOf(hit, entry, landed, plan.atomicUnit));
      byPage.set(key, slot);
    }
    for (const { file, page, pieces, start, unwritten } of byPage.values()) {
      if (unwritten) continue;
      const changed = pieces.filter((p) => p.changed);
      if (!changed.some((p) => p.landed) || !changed.some((p) => !p.landed)) continue;
      pieces.sort((a, b) => a.pageOffset - b.pageOffset);
      const headerAt = start < 0 ? -1 : start - entry.offset; // the page header's place in the write
      torn.push({
        file,
        page,
        unitsNew: pieces.map((p) => p.landed),
        oldLsn: lsnAt(entry.old, headerAt),
        newLsn: lsnAt(entry.new, headerAt),
        writeSeq: w.seq,
      });
    }
  });
  return torn;
}
