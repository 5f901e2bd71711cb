/**
 * The disk's counters at a barrier, from the recording: what the live disk reports at its cut
 * (faults/helper-status.ts), counted the helper's way (faults/helper/pfdisk.c count_write_locked)
 * over every write that reached the disk before the barrier, pending ones included.
 */
import type { DiskStats } from '../../faults/helper-status.js';
import type { RecordedWrite } from '../../faults/recording.js';
import type { Barrier } from './barriers.js';

const BUCKETS = ['512', '1024', '2048', '4096', '8192', '16384', '32768', '65536', '131072', '262144', '524288', '1048576'];
const STRADDLE_OFFSETS = 64;

export interface RecordingStats {
  writes: RecordedWrite[];
  pageSize: number;
  atomicUnit: number;
}

function bucketOf(length: number): string {
  for (const b of BUCKETS) if (length <= Number(b)) return b;
  return '>1048576';
}

export function statsAt(r: RecordingStats, barrier: Barrier): DiskStats {
  // flush barrier k is the moment flush k arrived, and the cut comes after flush index - 1
  const flushes = barrier.index - 1;
  const stats: DiskStats = { writes: 0, flushes, bytesWritten: 0, pageWrites: 0, pageWritesMisaligned: 0, pageWritesStraddling: 0, writesBySize: {}, straddleOffsets: [] };
  const end = barrier.durableCount + barrier.pending.length;
  for (let i = 0; i < end; i++) {
    const { offset, length } = r.writes[i]!;
    stats.writes += 1;
    stats.bytesWritten += length;
    const bucket = bucketOf(length);
    stats.writesBySize[bucket] = (stats.writesBySize[bucket] ?? 0) + 1;
    if (length !== r.pageSize) continue;
    stats.pageWrites += 1;
    if (offset % r.pageSize !== 0) stats.pageWritesMisaligned += 1;
    if (length > r.atomicUnit || Math.floor(offset / r.atomicUnit) === Math.floor((offset + length - 1) / r.atomicUnit)) continue;
    if (stats.pageWritesStraddling < STRADDLE_OFFSETS) stats.straddleOffsets!.push(offset);
    stats.pageWritesStraddling += 1;
  }
  return stats;
}
