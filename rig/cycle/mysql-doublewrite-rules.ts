/**
 * Whether MySQL 8.0.20+ recovery (9.7 here) would restore a torn page from its doublewrite files,
 * by its own rules (buf0dblwr.cc recv::Pages, fsp0file.cc Datafile::restore_from_doublewrite),
 * which differ from MariaDB's (rig/cycle/doublewrite-rules.ts):
 * - it reads every #ib_<pagesize>_<n>.dblwr file whole, file 0 first, slot by slot, and no copy is
 *   weighed against the checkpoint LSN;
 * - a page other than 0: recovery walks the copies in that order; at the first copy of the page,
 *   if the page in its file does not verify, it writes that copy, whatever its LSN ("Recovered
 *   page [page id: ...] from the doublewrite buffer"); if that copy does not verify either, the
 *   server stops (ER_IB_MSG_DBLWR_1306, a fatal error). Later copies are never looked at. A copy
 *   older than the newest write restores an older page: the judge sees it as not current, and one
 *   older than the checkpoint loses what redo cannot replay (docs/findings/mysql-stale-dblwr-copy.md);
 * - page 0 of a file (Datafile::validate_for_recovery): the file's space id comes from a survey of
 *   its first 64 pages (rig/cycle/mysql-space-survey.ts); the copy is the one with the largest LSN
 *   among those naming the page (recv::Pages::find), written without being verified. The system
 *   tablespace's page 0 is looked up by space 0 the same way;
 * - the system tablespace's TRX_SYS page (space 0, page 5) is read through the buffer pool at
 *   startup (dblwr::v1::init, Double_write::init_v1, looking for the old doublewrite area) before
 *   recovery reads the .dblwr files: torn, it stops the server (ib::fatal in Buf_fetch::read_page)
 *   whatever copy the files hold (docs/findings/mysql-trx-sys-page.md);
 * - a file whose page 0 is torn and has no copy stops the recovery ("Tablespace N mentioned in the
 *   redo log is corrupted in a way it is unrecoverable by double-write buffer", fatal): none of
 *   its pages, or any other, is restored;
 * - with DETECT_ONLY, the reduced doublewrite file's entries (rig/pages/reduced-doublewrite.ts)
 *   can veto a copy: reducedVeto below.
 */
import type { DoublewriteCopy } from '../pages/index.js';
import type { ReducedEntry } from '../pages/reduced-doublewrite.js';
import type { DoublewriteCopyEvidence, DoublewriteEvidence } from '../results/types.js';
import type { PageIdentity } from './page-identity.js';

/**
 * Only the .dblwr files count: MySQL still creates the old doublewrite area in ibdata1 (to keep
 * the system tablespace's page order), but its recovery reads copies from the files alone.
 */
const isDblwrFile = (c: DoublewriteCopy): boolean => c.source.file.endsWith('.dblwr');

/** The order recovery loads copies in: by file number (#ib_16384_0 first), then slot. */
function loadOrder(a: DoublewriteCopy, b: DoublewriteCopy): number {
  const n = (c: DoublewriteCopy) => Number(/_(\d+)\.dblwr$/.exec(c.source.file)?.[1] ?? 0);
  return n(a) - n(b) || a.source.slot - b.source.slot;
}

/** FSP_TRX_SYS_PAGE_NO: the system tablespace's transaction system header page. */
const TRX_SYS_PAGE = 5;

const where = (c: { source: string; slot: number }) => `${c.source} slot ${c.slot}`;

interface Judged {
  copies: DoublewriteCopyEvidence[];
  restorable: boolean;
  why: string;
}

function judged(copy: DoublewriteCopy, accepted: boolean, why: string): DoublewriteCopyEvidence {
  return { source: copy.source.file, slot: copy.source.slot, lsn: copy.lsn, valid: copy.valid, accepted, why };
}

function otherPage(target: PageIdentity, mine: DoublewriteCopy[], checkpointLsn: number | null): Judged {
  const [first, ...later] = mine;
  if (!first) return { copies: [], restorable: false, why: 'no copy of this page in the doublewrite files' };
  const skipped = later.map((c) => judged(c, false, `recovery meets ${first.source.file} slot ${first.source.slot} first and never looks at this one`));
  if (!first.valid) {
    const why = `the first copy recovery meets (${first.source.file} slot ${first.source.slot}) is not a valid page image (${first.reason ?? 'invalid'}): the server stops with a fatal error`;
    return { copies: [judged(first, false, why), ...skipped], restorable: false, why };
  }
  if (target.fileOpens === false) {
    const why = "the file's page 0 is torn with no copy: recovery stops before it restores any page";
    return { copies: [judged(first, false, why), ...skipped], restorable: false, why };
  }
  if (target.space === 0 && target.page === TRX_SYS_PAGE) {
    const why = `the server reads the TRX_SYS page at startup, before recovery reads the doublewrite files, and stops on it torn; the valid copy in ${where({ source: first.source.file, slot: first.source.slot })} is never used`;
    return { copies: [judged(first, false, why), ...skipped], restorable: false, why };
  }
  const age = checkpointLsn !== null && first.lsn < checkpointLsn ? `, older than the checkpoint LSN ${checkpointLsn}, which MySQL does not check` : '';
  const newer = later.filter((c) => c.lsn > first.lsn).length;
  const note = newer ? `; ${newer} later cop${newer === 1 ? 'y is' : 'ies are'} newer and unused` : '';
  const copy = judged(first, true, `valid, the first copy recovery meets (LSN ${first.lsn}${age})`);
  return { copies: [copy, ...skipped], restorable: true, why: `restorable from ${where(copy)} (LSN ${first.lsn}${age})${note}` };
}

function pageZero(target: PageIdentity, mine: DoublewriteCopy[]): Judged {
  if (!mine.length) return { copies: [], restorable: false, why: 'no copy of page 0 in the doublewrite files' };
  const newest = mine.reduce((a, b) => (b.lsn > a.lsn ? b : a));
  const copies = mine.map((c) => judged(c, c === newest && c.valid && target.page0Path !== 'none',
    c === newest ? `the copy with the largest LSN (${c.lsn}), the one page 0's lookup takes${c.valid ? '' : ', and it is not a valid page image'}` : `not the largest LSN (${c.lsn} < ${newest.lsn})`));
  if (target.page0Path === 'none') {
    return { copies, restorable: false, why: 'the survey of the first 64 pages does not choose this file\'s space id: the server cannot look the copy up' };
  }
  if (!newest.valid) return { copies, restorable: false, why: `page 0's lookup takes the newest copy (${newest.source.file} slot ${newest.source.slot}), which is not a valid page image (${newest.reason ?? 'invalid'})` };
  return { copies, restorable: true, why: `restorable from ${newest.source.file} slot ${newest.source.slot} (LSN ${newest.lsn}, the newest copy; found through ${target.page0Path === 'system' ? 'space 0' : 'the 64-page survey'})` };
}

/**
 * DETECT_ONLY (recv::Pages::dblwr_recover_page, reduced_recover): a page the reduced file names
 * at an LSN newer than the copy recovery would write is not restored, and a torn page it names
 * that no copy restores stops the server ("Cannot recover it from the doublewrite buffer because
 * it was written in detect_only-doublewrite mode", fatal).
 */
function reducedVeto(judgedPage: Judged, reducedLsn: number | null): Judged {
  if (reducedLsn === null) return judgedPage;
  if (!judgedPage.restorable && judgedPage.copies.length > 0) return judgedPage; // it stops on that copy first
  const used = judgedPage.copies.find((c) => c.accepted);
  if (used && used.lsn >= reducedLsn) return judgedPage;
  const why = used
    ? `the reduced doublewrite file names the page at LSN ${reducedLsn}, newer than the copy recovery would write (LSN ${used.lsn}): the server stops rather than restore it`
    : `the reduced doublewrite file names the page (LSN ${reducedLsn}) and no copy restores it: the server stops (DETECT_ONLY detects, cannot repair)`;
  return { copies: judgedPage.copies.map((c) => (c.accepted ? { ...c, accepted: false, why } : c)), restorable: false, why };
}

export function judgeDoublewriteMysql(
  target: PageIdentity, copies: readonly DoublewriteCopy[], checkpointLsn: number | null, reduced: readonly ReducedEntry[] = [],
): DoublewriteEvidence {
  if (target.space === null) return { checkpointLsn, copies: [], restorable: false, why: 'the tablespace id is unknown, so no copy can be matched to the page' };
  const mine = copies.filter((c) => isDblwrFile(c) && c.space === target.space && c.page === target.page).sort(loadOrder);
  const named = reduced.filter((e) => e.space === target.space && e.page === target.page);
  const reducedLsn = named.length ? Math.max(...named.map((e) => e.lsn)) : null;
  const judgedPage = reducedVeto(target.page === 0 ? pageZero(target, mine) : otherPage(target, mine, checkpointLsn), reducedLsn);
  return { checkpointLsn, ...judgedPage, ...(reducedLsn !== null ? { reducedLsn } : {}) };
}
