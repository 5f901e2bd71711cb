/**
 * Whether the server's own recovery would restore a torn page from a doublewrite copy. MySQL
 * 8.0.20+ has rules of its own (rig/cycle/mysql-doublewrite-rules.ts); these are MariaDB 10.11's
 * (buf_dblwr_t::recover, recv_dblwr_t), which 11.8 keeps:
 * - the copy must name the page (space id, page number) and be a valid page image;
 * - a copy older than the checkpoint LSN is ignored (pages written before the checkpoint are of no
 *   use to recovery; MDEV-32968, MDEV-34830), so a copy the dataset's preparation left behind,
 *   or one overtaken by a checkpoint the unflushed home write never reached, restores nothing;
 * - page 0 takes its own path (Datafile::validate_for_recovery): the server takes the space id
 *   from the torn page's own header when its file and space headers agree, and looks the copy up
 *   by it; only when the header names no usable space does it go through pages 1-3 of the file,
 *   which must be valid and not all zeros (recv_dblwr_t::find_first_page, MDEV-32968). With
 *   neither, no copy can be matched to the file. The system tablespace's page 0 is restored like
 *   any other page. (MariaDB 10.11.19 accepts a torn page 0's copy by these rules and then does
 *   not write it: rig/cycle/page0-evidence.ts records that as a finding.)
 * - a file whose page 0 is torn and cannot be restored is not opened ("The first page of file ...
 *   is corrupted"), so none of its pages is restored either;
 * - of several accepted copies, the newest wins.
 */
import type { DoublewriteCopy } from '../pages/index.js';
import type { ReducedEntry } from '../pages/reduced-doublewrite.js';
import type { DoublewriteEvidence } from '../results/types.js';
import { judgeDoublewriteMysql } from './mysql-doublewrite-rules.js';
import type { PageIdentity } from './page-identity.js';

/** Whose recovery judges the copies: MariaDB's, or MySQL's, with its DETECT_ONLY entries. */
export type RecoveryRules = { flavor: 'mariadb' } | { flavor: 'mysql'; reduced: readonly ReducedEntry[] };

export const MARIADB_RULES: RecoveryRules = { flavor: 'mariadb' };

function judgeOne(copy: DoublewriteCopy, checkpointLsn: number | null): { accepted: boolean; why: string } {
  if (!copy.valid) return { accepted: false, why: `not a valid page image (${copy.reason ?? 'invalid'})` };
  if (checkpointLsn !== null && copy.lsn < checkpointLsn) {
    return { accepted: false, why: `LSN ${copy.lsn} is older than the checkpoint LSN ${checkpointLsn}: recovery ignores it` };
  }
  return { accepted: true, why: checkpointLsn === null ? 'valid (checkpoint unknown)' : `valid, LSN ${copy.lsn} >= checkpoint ${checkpointLsn}` };
}

export function judgeDoublewrite(
  target: PageIdentity,
  copies: readonly DoublewriteCopy[],
  checkpointLsn: number | null,
  rules: RecoveryRules = MARIADB_RULES,
): DoublewriteEvidence {
  if (rules.flavor === 'mysql') return judgeDoublewriteMysql(target, copies, checkpointLsn, rules.reduced);
  const mine = target.space === null ? [] : copies.filter((c) => c.space === target.space && c.page === target.page);
  const judged = mine.map((c) => ({ source: c.source.file, slot: c.source.slot, lsn: c.lsn, valid: c.valid, ...judgeOne(c, checkpointLsn) }));
  const accepted = judged.filter((c) => c.accepted).sort((a, b) => b.lsn - a.lsn);
  const evidence = (restorable: boolean, why: string): DoublewriteEvidence => ({ checkpointLsn, copies: judged, restorable, why });
  if (target.space === null) return evidence(false, 'the tablespace id is unknown, so no copy can be matched to the page');
  if (!judged.length) return evidence(false, 'no copy of this page in the doublewrite buffer');
  if (!accepted.length) return evidence(false, `no copy the server accepts: ${judged.map((c) => c.why).join('; ')}`);
  if (target.page === 0 && target.page0Path === 'none') {
    return evidence(false, "page 0's headers name no usable space id and pages 1-3 of the file are not all valid and non-zero: the server cannot match a copy to the file");
  }
  if (target.page !== 0 && target.fileOpens === false) {
    return evidence(false, "the file's page 0 is torn and cannot be restored: the server does not open the file, so restores none of its pages");
  }
  return evidence(true, `restorable from ${accepted[0]!.source} slot ${accepted[0]!.slot} (LSN ${accepted[0]!.lsn})`);
}
