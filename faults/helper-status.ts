/** The helper's `status` reply, and the counters and cut facts kept from it. */

/** Counters the power-fail disk kept from arming to the cut. */
export interface DiskStats {
  writes: number;
  flushes: number;
  bytesWritten: number;
  pageWrites: number;
  pageWritesMisaligned: number;
  pageWritesStraddling: number; // page-size writes that crossed an atomic-unit boundary
  writesBySize: Record<string, number>; // "512", "4096", ... ">1048576"
  straddleOffsets?: number[]; // device offsets of the first straddling page writes (the helper keeps 64)
}

/** What the disk says of its cut. */
export interface DiskCut {
  reason: string; // armed, after-writes, at-time, manual
  atMs: number; // since the load started
  pending: number;
  pendingPageWrites: number;
  stats: DiskStats;
  /** Device ranges of the doublewrite area the armed trigger looked past: it counted home writes only. */
  copyRanges?: number;
  /** Device ranges the armed trigger did not count (temporary tablespaces). */
  skipRanges?: number;
}

export interface HelperStatus {
  cut: boolean;
  cutReason: string;
  released: boolean;
  dumping: boolean; // the cut fired and is being captured: writes under way finish, then the journal is written
  dumpError: number; // -errno of a failed dump, else 0
  broken: string; // why the image holds bytes the journal does not explain, else ''
  trigger: string;
  triggerN: number;
  pending: number;
  pendingPageWrites: number;
  cutPending: number;
  cutPendingPageWrites: number;
  journalBytes: number;
  retired: number;
  reads: number;
  writes: number;
  flushes: number;
  bytesWritten: number;
  pageWrites: number;
  pageWritesMisaligned: number;
  pageWritesStraddling: number;
  unit: number;
  pageSize: number;
  cache: 'volatile' | 'durable';
  completedDurable: number; // writes a durable cache retired as they completed
  inService: number; // requests the device is serving (with a queue depth: at most that)
  queued: number; // requests waiting for a queue slot
  writesBySize: number[];
  straddleOffsets?: number[]; // absent from a helper built before it kept them
  copyRanges?: number; // device ranges of page copies the armed trigger looked past
  skipRanges?: number; // device ranges the armed trigger did not count
}

/** The helper's write-size buckets, by name: a write goes in the first that holds it. */
export const BUCKET_NAMES = ['512', '1024', '2048', '4096', '8192', '16384', '32768', '65536', '131072',
  '262144', '524288', '1048576', '>1048576'];

export function diskStats(s: HelperStatus): DiskStats {
  const writesBySize: Record<string, number> = {};
  s.writesBySize.forEach((n, i) => {
    if (n > 0) writesBySize[BUCKET_NAMES[i]!] = n;
  });
  return {
    writes: s.writes,
    flushes: s.flushes,
    bytesWritten: s.bytesWritten,
    pageWrites: s.pageWrites,
    pageWritesMisaligned: s.pageWritesMisaligned,
    pageWritesStraddling: s.pageWritesStraddling,
    writesBySize,
    ...(s.straddleOffsets ? { straddleOffsets: s.straddleOffsets } : {}),
  };
}

export function diskCut(s: HelperStatus, atMs: number): DiskCut {
  return {
    reason: s.cutReason,
    atMs,
    pending: s.cutPending,
    pendingPageWrites: s.cutPendingPageWrites,
    stats: diskStats(s),
    ...(s.copyRanges ? { copyRanges: s.copyRanges } : {}),
    ...(s.skipRanges ? { skipRanges: s.skipRanges } : {}),
  };
}
