/**
 * The writes pending at the cut into RocksDB's files (#rocksdb/ in the datadir), by file kind and
 * by what the crash plan made of them. The write-ahead log (NNNNNN.log) is what RocksDB's recovery
 * replays: a log write that was dropped or torn leaves the log's tail short or broken, which
 * RocksDB's default recovery mode refuses to start on. The disk's record, not the server's word,
 * says whether the cut could have broken the log's tail.
 */
import type { CrashPlan, Fate } from '../../faults/crash-plan.js';
import { mapRangeToPages, type ExtentMap } from '../pages/index.js';
import type { RocksdbFileWrites, RocksdbWrites } from '../results/types.js';

const ROCKSDB_DIR = /(^|\/)#rocksdb\//;
const WAL = /(^|\/)#rocksdb\/\d+\.log$/;

function emptyWrites(): RocksdbFileWrites {
  return { files: [], landed: 0, dropped: 0, torn: 0 };
}

function count(into: RocksdbFileWrites, file: string, fate: Fate): void {
  if (!into.files.includes(file)) into.files.push(file);
  into[fate]++;
}

/** Each pending write counts once per RocksDB file it touched (a write can span two files' extents). */
export function rocksdbWrites(plan: CrashPlan, extents: ExtentMap): RocksdbWrites {
  const writes: RocksdbWrites = { wal: emptyWrites(), other: emptyWrites() };
  for (const w of plan.writes) {
    const files = new Set(mapRangeToPages(extents, w.offset, w.length).map((h) => h.file).filter((f) => ROCKSDB_DIR.test(f)));
    for (const file of files) count(WAL.test(file) ? writes.wal : writes.other, file, w.fate);
  }
  return writes;
}

/** Whether a log write did not land whole at the cut: the log's tail in the crash image is short or torn. */
export function walTailLost(writes: RocksdbWrites | null | undefined): boolean {
  return (writes?.wal.dropped ?? 0) + (writes?.wal.torn ?? 0) > 0;
}

/** Writes pending at the cut into any RocksDB file (a write spanning two files counts for each). */
export function rocksdbWritesPending(writes: RocksdbWrites): number {
  const total = (w: RocksdbFileWrites) => w.landed + w.dropped + w.torn;
  return total(writes.wal) + total(writes.other);
}
