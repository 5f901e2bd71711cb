/**
 * Joins the torn pages (ground truth) with the scans: why each was invalid before recovery,
 * whether it is valid after, and what restored it. `doublewrite`: the crash image's doublewrite
 * area held a valid copy of that page at least as new as the version the torn write overwrote (the
 * server restores it, and redo brings it forward); `redo`: no such copy, yet the page came back at
 * the torn version's LSN or later (rebuilt from the log, e.g. a page the log initialises);
 * `unexplained`: valid again, but neither fits.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { DatadirScan, DoublewriteCopy } from '../pages/index.js';
import { isPageFree } from '../pages/page-allocation.js';
import type { Attribution, TornPage } from '../results/types.js';
import type { TornPageTruth } from './torn-pages.js';

const key = (file: string, page: number): string => `${file}#${page}`;

function spaceOf(scan: DatadirScan, file: string): number | null {
  return scan.files.find((f) => f.file === file)?.space ?? null;
}

function invalidReasons(scan: DatadirScan | null): Map<string, string> {
  return new Map((scan?.invalid ?? []).map((p) => [key(p.file, p.page), `${p.reason}: ${p.detail}`]));
}

function attribute(
  truth: TornPageTruth,
  space: number | null,
  copies: DoublewriteCopy[],
  lsnAfter: bigint | null,
): Attribution {
  const fitting = copies.some(
    (c) => c.valid && c.space === space && c.page === truth.page && BigInt(c.lsn) >= truth.oldLsn,
  );
  if (fitting) return 'doublewrite';
  if (lsnAfter !== null && lsnAfter >= truth.newLsn) return 'redo';
  return 'unexplained';
}

function lsnAfterRecovery(datadir: string, file: string, page: number, pageSize: number): bigint | null {
  let fd: number | null = null;
  try {
    fd = openSync(`${datadir}/${file}`, 'r');
    const buf = Buffer.alloc(24);
    return readSync(fd, buf, 0, 24, page * pageSize) === 24 ? buf.readBigUInt64BE(16) : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function describeTornPages(
  truths: TornPageTruth[],
  before: DatadirScan,
  copies: DoublewriteCopy[],
  after: DatadirScan | null,
  datadir: string,
): TornPage[] {
  const invalidBefore = invalidReasons(before);
  const invalidAfter = invalidReasons(after);
  return truths.map((t) => {
    const space = spaceOf(before, t.file);
    const pageSize = before.files.find((f) => f.file === t.file)?.format.pageSize ?? 16384;
    const validAfter = after ? !invalidAfter.has(key(t.file, t.page)) : null;
    const freedAfter = validAfter === false && isPageFree(`${datadir}/${t.file}`, t.page, pageSize) === true;
    return {
      file: t.file,
      space,
      page: t.page,
      unitsNew: t.unitsNew,
      invalidBefore: invalidBefore.get(key(t.file, t.page)) ?? null,
      validAfter,
      attribution: validAfter ? attribute(t, space, copies, lsnAfterRecovery(datadir, t.file, t.page, pageSize)) : null,
      ...(freedAfter ? { freedAfter } : {}),
    };
  });
}
