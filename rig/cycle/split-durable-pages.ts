/**
 * Pages whose durable bytes the disk received in pieces. The truth (page-truth.ts) takes a page's
 * durable content, what the disk held before the writes pending at the cut, as one whole version.
 * That fails when the page reached the disk in several write requests that did not all carry the
 * same version and a flush made them durable in between: the kernel's page cache writes a page
 * buffered by `innodb_flush_method=fsync` back in 4 KiB pieces at different times, and another
 * file's fsync flushes the whole device; O_DIRECT writes the block layer split can interleave
 * with a later write of the same page. The crash image then holds a page no version ever was,
 * with no pending write to show for it.
 *
 * The order log names every write the disk completed. For a page the verifier finds invalid and
 * the truth did not find torn, the durable writes of the log's window that touched it are the
 * evidence: when the last writer of its bytes is not one single write, its durable content came
 * from more than one write, and the verifier's verdict has a cause the record shows. Such a page
 * joins the truth as torn, with those writes. Without that evidence (no log, or no durable write
 * of the window touched only part of the page) nothing is added, and the scan and the truth still
 * disagree: a rig error with both lists.
 */
import type { JournalEntry } from '../../faults/journal.js';
import type { OrderEvent } from '../../faults/order-log.js';
import { mapRangeToPages, type ExtentMap } from '../pages/index.js';
import type { PageTruth } from './page-truth.js';

export interface InvalidPage {
  file: string;
  page: number;
}

/** For each page: per byte, the seq of the durable write that wrote it last (-1: none in the log). */
function lastDurableWriters(
  wanted: ReadonlyMap<string, { pageSize: number }>,
  order: readonly OrderEvent[],
  pending: ReadonlySet<number>,
  map: ExtentMap,
): Map<string, Float64Array> {
  const writers = new Map<string, Float64Array>();
  for (const event of order) {
    if (event.kind !== 'write' || pending.has(event.seq)) continue;
    for (const hit of mapRangeToPages(map, event.offset, event.length)) {
      if (hit.page === null) continue;
      const key = `${hit.file}#${hit.page}`;
      const page = wanted.get(key);
      if (!page) continue;
      let bytes = writers.get(key);
      if (!bytes) writers.set(key, (bytes = new Float64Array(page.pageSize).fill(-1)));
      bytes.fill(event.seq, hit.pageOffset, hit.pageOffset + hit.length); // the log is in completion order
    }
  }
  return writers;
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

/**
 * The truth with every invalid page it did not find torn, and whose durable bytes the order log
 * shows came from more than one write, classed torn (their `durableSplit` says by which writes).
 */
export function addSplitDurablePages(
  truth: readonly PageTruth[],
  invalid: readonly InvalidPage[],
  order: readonly OrderEvent[] | null,
  journal: readonly JournalEntry[],
  map: ExtentMap,
): PageTruth[] {
  const key = (p: InvalidPage) => `${p.file}#${p.page}`;
  const byKey = new Map(truth.map((p) => [key(p), p]));
  const pageSizes = new Map(map.files.flatMap((f) => (f.pageSize === null ? [] : [[f.rel, f.pageSize] as const])));
  const candidates = invalid.filter((p) => {
    const known = byKey.get(key(p));
    return (!known || known.class === 'whole') && pageSizes.has(p.file);
  });
  if (!order || candidates.length === 0) return [...truth];
  const wanted = new Map(candidates.map((p) => [key(p), { pageSize: pageSizes.get(p.file)! }]));
  const writers = lastDurableWriters(wanted, order, new Set(journal.map((e) => e.seq)), map);
  const split = new Map<string, PageTruth>();
  for (const p of candidates) {
    const bytes = writers.get(key(p));
    if (!bytes) continue; // no durable write of the window touched it: no evidence
    const { seqs, uncovered } = writersOf(bytes);
    if (seqs.length + (uncovered ? 1 : 0) < 2) continue; // one write wrote all of it
    const known = byKey.get(key(p));
    const unit = 4096;
    const unitsNew = Array.from({ length: Math.ceil(bytes.length / unit) }, (_, i) => bytes[i * unit] === seqs[seqs.length - 1]);
    split.set(key(p), {
      file: p.file,
      page: p.page,
      class: 'torn',
      writeSeqs: known?.writeSeqs ?? [],
      unitsNew,
      durableLsn: null,
      newestLsn: known?.newestLsn ?? null,
      durableSplit: { writeSeqs: seqs, bytesBeforeWindow: uncovered },
    });
  }
  return [...truth.map((p) => split.get(key(p)) ?? p), ...[...split.values()].filter((p) => !byKey.has(key(p)))];
}
