/**
 * A file's bytes as they were durable before the cut: the bytes the crash image holds, with every
 * byte a pending write touched put back to what the first pending write over it overwrote. This
 * is the state the disk had made durable at its last completed flush, whatever the plan let land.
 */
import type { JournalEntry } from '../../faults/journal.js';
import { mapRangeToPages, type ExtentMap } from '../pages/index.js';

/**
 * `rel` names the file as the extent map does (`./ib_logfile0`); `current` holds its bytes
 * [from, from + current.length) as the crash image has them. Returns a copy with the pending
 * writes undone.
 */
export function durableFileBytes(journal: readonly JournalEntry[], map: ExtentMap, rel: string, from: number, current: Uint8Array): Buffer {
  const out = Buffer.from(current);
  const covered = new Uint8Array(current.length);
  const file = map.files.find((f) => f.rel === rel);
  if (!file) return out;
  for (const entry of journal) {
    for (const hit of mapRangeToPages(map, entry.offset, entry.length)) {
      if (hit.file !== rel) continue;
      const fileOffset = hit.page === null ? hit.pageOffset : (hit.page - file.firstPage) * file.pageSize! + hit.pageOffset;
      const lo = Math.max(from, fileOffset);
      const hi = Math.min(from + current.length, fileOffset + hit.length);
      for (let at = lo; at < hi; at++) {
        if (covered[at - from]) continue;
        covered[at - from] = 1;
        out[at - from] = entry.old[hit.deviceOffset - entry.offset + (at - fileOffset)]!;
      }
    }
  }
  return out;
}
