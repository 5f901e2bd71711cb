/**
 * What the record says about a torn page 0 of a tablespace file, before and after recovery.
 *
 * Before: which way the server finds the page's doublewrite copy. MySQL: the space id its survey
 * of the first 64 pages chooses (rig/cycle/mysql-space-survey.ts). MariaDB 10.11's
 * Datafile::validate_for_recovery: the space id in the torn page's own header, when the file
 * header (FIL_PAGE_SPACE_ID) and the space header (FSP_SPACE_ID) agree on the file's space; else
 * pages 1-3 of the file, which must each be valid, name that page number and not be all zeros
 * (recv_dblwr_t::find_first_page, MDEV-32968). The system tablespace's page 0 is restored at
 * start-up by the doublewrite recovery like any other page. Pages 1-3 are recorded either way.
 * MariaDB also reads a tablespace's page 0, from its doublewrite copy when it is torn, when the redo
 * log after the checkpoint holds a WRITE to that page 0 that changes its size or flags
 * (fil_space_set_recv_size_and_flags): the record says whether it does (rig/pages/redo-file-ops.ts).
 *
 * After: the lines the server's log wrote about the file's first page, and whether the page came
 * back. A copy the server's own rules accept that was not restored is a finding, stated as such.
 */
import { join } from 'node:path';
import { FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FSP_SPACE_ID, isAllZero, readU32 } from '../pages/page-format.js';
import { readPageSync } from '../pages/read-page.js';
import { logSegments } from '../logs/index.js';
import type { RedoFileOps } from '../pages/redo-file-ops.js';
import type { Page0Evidence, Page0Path, TornPage } from '../results/types.js';
import type { ServerFlavor } from '../results/server-identity.js';
import { surveySpaceId } from './mysql-space-survey.js';

export type FirstPageState = Page0Evidence['firstPages'][number]['state'];

const key = (file: string, page: number): string => `${file}#${page}`;

function firstPageState(path: string, file: string, n: number, pageSize: number, invalid: ReadonlySet<string>): FirstPageState {
  const page = readPageSync(path, n, pageSize);
  if (page === null) return 'missing';
  if (isAllZero(page)) return 'zero';
  if (invalid.has(key(file, n)) || readU32(page, FIL_PAGE_OFFSET) !== n) return 'invalid';
  return 'valid';
}

/**
 * Whether the redo log after the checkpoint (`redo`, MariaDB 10.8+) changes page 0's size or flags
 * in tablespace `space`: which of the two its writes cover, and the LSN of the first one's
 * mini-transaction; null: it holds no such write; undefined: not known (no such log read, no known
 * tablespace, or the system tablespace, whose page-0 writes the parse leaves out).
 */
export function redoHeaderOf(redo: RedoFileOps | null, space: number | null): Page0Evidence['redoHeader'] {
  if (!redo?.page0Headers || space === null || space === 0) return undefined;
  const writes = redo.page0Headers.filter((w) => w.space === space);
  if (!writes.length) return null;
  return { size: writes.some((w) => w.size !== null), flags: writes.some((w) => w.flags !== null), lsn: writes[0]!.lsn };
}

/**
 * The evidence for a torn page 0, read from the crash image before the server touches it, and
 * MariaDB's redo log after the checkpoint (`redo`).
 */
export function describePage0(
  datadir: string,
  file: string,
  space: number | null,
  pageSize: number,
  invalid: ReadonlySet<string>,
  flavor: ServerFlavor = 'mariadb',
  redo: RedoFileOps | null = null,
): Omit<Page0Evidence, 'serverLog' | 'finding'> {
  const path = join(datadir, file);
  const firstPages = [1, 2, 3].map((n) => ({ page: n, state: firstPageState(path, file, n, pageSize, invalid) }));
  const page0 = readPageSync(path, 0, pageSize);
  const fil = page0 ? readU32(page0, FIL_PAGE_SPACE_ID) : null;
  const fsp = page0 ? readU32(page0, FSP_SPACE_ID) : null;
  const headerSpaceId = fil !== null && fil === fsp && fil !== 0 ? fil : null;
  if (flavor === 'mysql') {
    const survey = surveySpaceId(path, pageSize);
    const via: Page0Path = space === 0 ? 'system' : survey.chosen !== null && survey.chosen === space ? 'survey' : 'none';
    return { path: via, headerSpaceId, firstPages, survey };
  }
  let via: Page0Path;
  if (space === 0) via = 'system';
  else if (headerSpaceId !== null && headerSpaceId === space) via = 'header';
  else if (firstPages.every((p) => p.state === 'valid')) via = 'pages-1-3';
  else via = 'none';
  const redoHeader = redoHeaderOf(redo, space);
  return { path: via, headerSpaceId, firstPages, ...(redoHeader !== undefined ? { redoHeader } : {}) };
}

/** Whether the page-0 lookup leaves the server a way to find the copy. */
export function page0Findable(evidence: Pick<Page0Evidence, 'path'>): boolean {
  return evidence.path !== 'none';
}

const FIRST_PAGE_LINE = /first page of file|page number=0\]|Inconsistent tablespace ID|Header page consists of zero bytes|Checksum mismatch in datafile|Chosen space:|Cannot determine the space ID/;

/** The server's log lines about this file's page 0, each once, with how often it was written. */
export function page0LogLines(errorLog: string, page: Pick<TornPage, 'file' | 'space'>): string[] {
  const name = page.file.replace(/^\.\//, '');
  const spaceTag = page.space === null ? null : `space=${page.space}, page number=0]`;
  const chosen = page.space === null ? null : new RegExp(`Chosen space:${page.space}\\s*$`); // MySQL's survey
  const counts = new Map<string, number>();
  for (const { text: raw } of logSegments(errorLog)) {
    if (!FIRST_PAGE_LINE.test(raw)) continue;
    if (!raw.includes(name) && !(spaceTag && raw.includes(spaceTag)) && !(chosen && chosen.test(raw))) continue;
    // drop the timestamp and thread id: MariaDB's "2026-11-30 14:00:00 0 ", MySQL's "2026-11-30T14:00:00.123456Z 1 "
    const line = raw.replace(/^(?:\S+ \S+|\d{4}-\d\d-\d\dT\S+Z) \d+ /, '');
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (x${n})` : line));
}

/** What the finding says of the redo after the checkpoint, when the record knows it (MariaDB). */
function redoHeaderClause(evidence: Page0Evidence): string {
  if (evidence.redoHeader === undefined) return '';
  return evidence.redoHeader
    ? '; the redo log after the checkpoint changes its size or flags (MariaDB then reads the copy)'
    : '; no redo after the checkpoint changes its size or flags';
}

/**
 * The finding, if any: the server's rules accept a copy of page 0 and the lookup can find it, yet
 * after recovery the page is still invalid and the tablespace has not freed it. With it, whether
 * the redo after the checkpoint changes the page's size or flags, the case MariaDB reads the copy in.
 */
export function page0Finding(page: TornPage): string | null {
  if (page.page !== 0 || !page.page0 || page.page0.path === 'system') return null;
  if (!page.doublewrite.restorable || page.validAfter !== false || page.freedAfter) return null;
  const via = page.page0.path === 'header' ? "the space id in the torn page's own header"
    : page.page0.path === 'survey' ? 'the survey of the first 64 pages' : 'pages 1-3 of the file';
  return `page 0 of ${page.file} had a doublewrite copy the server's rules accept (${page.doublewrite.why}; found through ${via}), yet the server did not restore it${redoHeaderClause(page.page0)}`;
}
