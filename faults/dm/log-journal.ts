/**
 * What a dm disk's write log says of its cut, in the FUSE disk's terms, so that the same plans make
 * the same kind of crash image from either backend: the writes unflushed at the cut (those after
 * the cut mark) become the journal, each with the bytes it overwrote (from the last logged write
 * before it, or the image the disk started from), and the counters are taken from the log.
 */
import { closeSync, openSync } from 'node:fs';
import { diskFailure } from '../disk-error.js';
import { readAt, writeAt } from '../file-io.js';
import { BUCKET_NAMES, type DiskStats } from '../helper-status.js';
import type { JournalEntry } from '../journal.js';
import { CUT_MARK, END_MARK, readLoggedData, type LogEntry, type WriteLog } from './log-writes.js';

export const ARM_MARK = 'powercut-rig-arm';

type LoggedWrite = Extract<LogEntry, { kind: 'write' }>;

export interface LogCut {
  /** Writes unflushed at the cut, in the order the device completed them. */
  pending: LoggedWrite[];
  /** Counters over what the log holds from the arm mark (or its start) to its end. */
  stats: DiskStats;
  pendingPageWrites: number;
}

function sizeBucket(length: number): number {
  let b = 0;
  for (let s = 512; s < length && b < BUCKET_NAMES.length - 1; s *= 2) b++;
  return b;
}

function markAt(log: WriteLog, text: string): number {
  return log.entries.findIndex((e) => e.kind === 'mark' && e.text === text);
}

/**
 * Splits the log at its cut mark. Refuses a log without it, or one that does not end with the
 * kernel's end mark: the target then stopped logging (its log device filled up or failed), and
 * writes reached the device that the log does not hold.
 */
export function cutOfLog(log: WriteLog, atomicUnit: number, pageSize: number): LogCut {
  const cutAt = markAt(log, CUT_MARK);
  if (cutAt < 0) throw diskFailure(`${log.path} has no cut mark: the disk was not cut`);
  const last = log.entries[log.entries.length - 1];
  if (!last || last.kind !== 'mark' || last.text !== END_MARK) {
    throw diskFailure(`${log.path} does not end with the kernel's '${END_MARK}' mark: the log device filled up or failed, so the log lacks writes the device took; give the disk a larger log (disk size) and run again`);
  }
  const pending = log.entries.slice(cutAt + 1, -1).filter((e): e is LoggedWrite => e.kind === 'write');
  const unexpected = log.entries.slice(cutAt + 1, -1).find((e) => e.kind !== 'write');
  if (unexpected) throw diskFailure(`${log.path}: entry ${unexpected.index} after the cut mark is a ${unexpected.kind}; only unflushed writes may follow it`);
  const armAt = markAt(log, ARM_MARK);
  const counted = log.entries.slice(armAt < 0 ? 0 : armAt + 1);
  const stats: DiskStats = { writes: 0, flushes: 0, bytesWritten: 0, pageWrites: 0, pageWritesMisaligned: 0, pageWritesStraddling: 0, writesBySize: {} };
  const straddles: number[] = [];
  for (const e of counted) {
    if (e.kind === 'flush') stats.flushes++;
    if (e.kind !== 'write' || e.dataAt === null) continue;
    stats.writes++;
    stats.bytesWritten += e.length;
    const bucket = BUCKET_NAMES[sizeBucket(e.length)]!;
    stats.writesBySize[bucket] = (stats.writesBySize[bucket] ?? 0) + 1;
    if (e.length !== pageSize) continue;
    stats.pageWrites++;
    if (e.offset % pageSize !== 0) stats.pageWritesMisaligned++;
    if (e.length <= atomicUnit && Math.floor(e.offset / atomicUnit) !== Math.floor((e.offset + e.length - 1) / atomicUnit)) {
      stats.pageWritesStraddling++;
      if (straddles.length < 64) straddles.push(e.offset);
    }
  }
  if (straddles.length) stats.straddleOffsets = straddles;
  return { pending, stats, pendingPageWrites: pending.filter((w) => w.length >= pageSize).length };
}

/**
 * The journal of the pending writes: each with the bytes it brought and the bytes it overwrote.
 * One pass over the log keeps, for every sector a pending write touches, the newest logged write
 * covering it; a sector no earlier write covers held what the disk's starting image held (`base`;
 * null: a fresh, zeroed image).
 */
export function journalOfLog(log: WriteLog, cut: LogCut, base: string | null): JournalEntry[] {
  const sector = log.sectorSize;
  const wanted = new Set<number>();
  for (const w of cut.pending) for (let s = w.offset; s < w.offset + w.length; s += sector) wanted.add(s);
  const firstPending = cut.pending[0]?.index ?? Infinity;
  const newest = new Map<number, LoggedWrite>();
  const logFd = openSync(log.path, 'r');
  const baseFd = base === null ? null : openSync(base, 'r');
  try {
    const sectorOf = (w: LoggedWrite | undefined, s: number): Buffer => {
      if (!w) return readAt(baseFd, s, sector);
      if (w.dataAt === null) return Buffer.alloc(sector);
      return readAt(logFd, w.dataAt + (s - w.offset), sector);
    };
    for (const e of log.entries) {
      if (e.index >= firstPending) break;
      if (e.kind !== 'write') continue;
      for (let s = e.offset; s < e.offset + e.length; s += sector) if (wanted.has(s)) newest.set(s, e);
    }
    return cut.pending.map((w) => {
      const old = Buffer.alloc(w.length);
      for (let s = w.offset; s < w.offset + w.length; s += sector) sectorOf(newest.get(s), s).copy(old, s - w.offset);
      const entry: JournalEntry = { seq: w.index, offset: w.offset, length: w.length, old, new: readLoggedData(logFd, w) };
      for (let s = w.offset; s < w.offset + w.length; s += sector) newest.set(s, w);
      return entry;
    });
  } finally {
    closeSync(logFd);
    if (baseFd !== null) closeSync(baseFd);
  }
}

/**
 * Makes the data image hold what the log says the device held at the cut: every pending write's
 * bytes, in the log's order. The device took concurrent writes in its own order; the journal
 * rolls back from the log's, so the image must agree with it.
 */
export function settleImage(imagePath: string, journal: JournalEntry[]): void {
  const fd = openSync(imagePath, 'r+');
  try {
    for (const e of journal) writeAt(fd, e.new, e.offset);
  } finally {
    closeSync(fd);
  }
}
