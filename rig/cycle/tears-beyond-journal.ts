/**
 * Pages torn where the journal of pending writes cannot show it. The truth (page-truth.ts) builds a
 * page's crash content from its durable content and the pending writes, and takes the durable
 * content as one whole version. Two things the disk's record can show break that:
 *
 * - The page reached the disk in pieces. Under `innodb_flush_method=fsync` the page cache writes a
 *   page back in 4 KiB pieces at different times, and any file's fsync flushes the whole device, so
 *   the durable image can hold a page no version ever was. The order log names every write the disk
 *   completed: the page's durable bytes were last written by more than one write, or some write of
 *   the log's window (durable or pending) carried only part of it (a writeback that caught a page
 *   mid-update carries a mix in one request, and shows as the partial write that was to complete it).
 * - The page is partly in an extent the crash image still marks unwritten. A filesystem records an
 *   unwritten extent as written only after the write, in its own journal; when that record did not
 *   become durable, those bytes read as zeros whatever reached the device, while the page's other
 *   bytes, in a written extent, hold data. The crash image's extent map shows it.
 *
 * The order log names device offsets, mapped to pages with the crash image's extent map; a write
 * made before the page's file was created (the file's birth time) was to blocks another file held
 * then (a tablespace created during the load may get blocks a dropped one freed), and is no
 * evidence about the page.
 *
 * For a page the verifier finds invalid and the truth did not find torn, either is the cause the
 * record shows, and the page joins the truth as torn, with its evidence. Without evidence nothing
 * is added, and the scan and the truth still disagree: a rig error with both lists.
 */
import type { JournalEntry } from '../../faults/journal.js';
import type { OrderEvent } from '../../faults/order-log.js';
import { mapRangeToPages, type ExtentMap, type MappedFile } from '../pages/index.js';
import type { PageTruth } from './page-truth.js';

export interface InvalidPage {
  file: string;
  page: number;
}

interface PageWrites {
  lastWriter: Float64Array; // per byte, the seq of the durable write that wrote it last (-1: none in the window)
  partial: Set<number>; // writes of the window, durable or pending, that covered only part of the page
}

function windowWrites(
  wanted: ReadonlyMap<string, { pageSize: number }>,
  order: readonly OrderEvent[],
  pending: ReadonlySet<number>,
  map: ExtentMap,
): Map<string, PageWrites> {
  const found = new Map<string, PageWrites>();
  const born = new Map(map.files.map((f) => [f.rel, f.bornUs ?? 0]));
  for (const event of order) {
    if (event.kind !== 'write') continue;
    for (const hit of mapRangeToPages(map, event.offset, event.length)) {
      if (hit.page === null || event.tUs < born.get(hit.file)!) continue;
      const key = `${hit.file}#${hit.page}`;
      const page = wanted.get(key);
      if (!page) continue;
      let writes = found.get(key);
      if (!writes) found.set(key, (writes = { lastWriter: new Float64Array(page.pageSize).fill(-1), partial: new Set() }));
      if (hit.length < page.pageSize) writes.partial.add(event.seq);
      if (!pending.has(event.seq)) writes.lastWriter.fill(event.seq, hit.pageOffset, hit.pageOffset + hit.length); // the log is in completion order
    }
  }
  return found;
}

/** The distinct last writers of a page's bytes, and whether some bytes had none in the window. */
function writersOf(bytes: Float64Array): { seqs: number[]; uncovered: boolean } {
  const seqs = new Set<number>();
  let uncovered = false;
  for (const seq of bytes) {
    if (seq < 0) uncovered = true;
    else seqs.add(seq);
  }
  return { seqs: [...seqs].sort((a, b) => a - b), uncovered };
}

/** How many of the page's bytes lie in extents the crash image marks unwritten, when some but not all do. */
function partlyUnwrittenBytes(file: MappedFile, page: number, pageSize: number): number | null {
  const from = page * pageSize;
  const to = from + pageSize;
  let unwritten = 0;
  let mapped = 0;
  for (const e of file.extents) {
    const overlap = Math.min(to, e.logical + e.length) - Math.max(from, e.logical);
    if (overlap <= 0) continue;
    mapped += overlap;
    if (e.unwritten) unwritten += overlap;
  }
  return unwritten > 0 && unwritten < mapped ? unwritten : null;
}

/**
 * The truth with every invalid page it did not find torn and whose tear the record shows another
 * way, classed torn: `partlyUnwritten` or `inPieces` says how.
 */
export function addTearsBeyondJournal(
  truth: readonly PageTruth[],
  invalid: readonly InvalidPage[],
  order: readonly OrderEvent[] | null,
  journal: readonly JournalEntry[],
  map: ExtentMap,
): PageTruth[] {
  const key = (p: InvalidPage) => `${p.file}#${p.page}`;
  const byKey = new Map(truth.map((p) => [key(p), p]));
  const pageSizes = new Map(map.files.flatMap((f) => (f.pageSize === null ? [] : [[f.rel, f.pageSize] as const])));
  const files = new Map(map.files.map((f) => [f.rel, f]));
  const candidates = invalid.filter((p) => {
    const known = byKey.get(key(p));
    return (!known || known.class === 'whole' || known.class === 'unwritten') && pageSizes.has(p.file);
  });
  if (candidates.length === 0) return [...truth];
  const split = new Map<string, PageTruth>();
  for (const p of candidates) {
    const pageSize = pageSizes.get(p.file)!;
    const unwrittenBytes = partlyUnwrittenBytes(files.get(p.file)!, p.page, pageSize);
    if (unwrittenBytes === null) continue;
    const known = byKey.get(key(p));
    split.set(key(p), {
      file: p.file, page: p.page, class: 'torn', writeSeqs: known?.writeSeqs ?? [], unitsNew: known?.unitsNew ?? [],
      durableLsn: known?.durableLsn ?? null, newestLsn: known?.newestLsn ?? null,
      partlyUnwritten: { unwrittenBytes },
    });
  }
  const rest = candidates.filter((p) => !split.has(key(p)) && byKey.get(key(p))?.class !== 'unwritten');
  const wanted = new Map(rest.map((p) => [key(p), { pageSize: pageSizes.get(p.file)! }]));
  const found = order && rest.length ? windowWrites(wanted, order, new Set(journal.map((e) => e.seq)), map) : new Map<string, PageWrites>();
  for (const p of rest) {
    const writes = found.get(key(p));
    if (!writes) continue; // no write of the window touched it: no evidence
    const { seqs, uncovered } = writersOf(writes.lastWriter);
    const durableMixed = seqs.length >= 2 || (seqs.length === 1 && uncovered);
    if (!durableMixed && writes.partial.size === 0) continue; // whole-page writes only: no evidence
    const known = byKey.get(key(p));
    const unit = 4096;
    const newest = seqs[seqs.length - 1];
    const unitsNew = Array.from({ length: Math.ceil(writes.lastWriter.length / unit) }, (_, i) => newest !== undefined && writes.lastWriter[i * unit] === newest);
    split.set(key(p), {
      file: p.file,
      page: p.page,
      class: 'torn',
      writeSeqs: known?.writeSeqs ?? [],
      unitsNew,
      durableLsn: null,
      newestLsn: known?.newestLsn ?? null,
      inPieces: { lastWriters: seqs, partialWrites: [...writes.partial].sort((a, b) => a - b), bytesBeforeWindow: uncovered },
    });
  }
  return [...truth.map((p) => split.get(key(p)) ?? p), ...[...split.values()].filter((p) => !byKey.has(key(p)))];
}
