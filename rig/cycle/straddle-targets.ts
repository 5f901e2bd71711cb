/**
 * What the page-size writes that crossed an atomic-unit boundary were writing: the helper lists
 * the device offsets of the first of them (faults/helper: STRADDLE_OFFSETS), and the crash image's
 * extent map names the file at each. A tablespace page that straddles can tear on a device whose
 * unit is the page size; a redo log write of the same length at a 512-byte-aligned offset can
 * straddle too, but the log's own checksummed blocks protect it, and a write no file owns is the
 * filesystem's (its journal, its metadata). Offsets past the list are counted as unlisted.
 */
import { mapRangeToPages, type ExtentMap } from '../pages/index.js';
import type { StraddleTargets, WriteTarget } from '../results/types.js';

const REDO = /(^|\/)(ib_logfile\d+|#innodb_redo\/#ib_redo\d+(_tmp)?)$/;

export function writeTarget(map: ExtentMap, offset: number, length: number): WriteTarget {
  const hits = mapRangeToPages(map, offset, length);
  if (hits.length === 0) return 'filesystem';
  if (hits.some((h) => h.kind !== null)) return 'tablespace';
  return hits.some((h) => REDO.test(h.file)) ? 'redo' : 'other';
}

export function mapStraddles(offsets: readonly number[], total: number, map: ExtentMap, pageSize: number): StraddleTargets {
  const counts: StraddleTargets = { tablespace: 0, redo: 0, other: 0, filesystem: 0, unlisted: Math.max(0, total - offsets.length) };
  for (const offset of offsets) counts[writeTarget(map, offset, pageSize)]++;
  return counts;
}
