/**
 * The torn pages of a crash image as the record shows them, before the server touches it: the
 * truth from content joined with the pre-recovery scan (why each page is invalid) and with the
 * doublewrite copies the image holds (and those pending writes carried or overwrote), judged by the rules of the server that recovers (MariaDB's
 * or MySQL's, with its DETECT_ONLY entries: `rules`). Page 0's rule needs its own
 * headers and pages 1-3 of its file as the crash image holds them, so this runs before recovery
 * changes anything; and a file whose page 0 cannot be restored loses every other page too, so
 * page 0 is judged first. Copies the device holds where the filesystem reads zeros
 * (`unwrittenCopies`) are judged by the same rules, as if the server could read them. A page 0's
 * evidence also says whether MariaDB's redo log after the checkpoint (`redo`) changes its size or
 * flags.
 */
import { join } from 'node:path';
import type { DatadirScan, DoublewriteCopy } from '../pages/index.js';
import type { RedoFileOps } from '../pages/redo-file-ops.js';
import { isPageFree } from '../pages/page-allocation.js';
import type { CopyInFlight, CopyOverwritten, TornPage } from '../results/types.js';
import { inFlightKey } from './copies-in-flight.js';
import { judgeDoublewrite, MARIADB_RULES, type RecoveryRules } from './doublewrite-rules.js';
import { describePage0 } from './page0-evidence.js';
import type { PageTruth } from './page-truth.js';

const key = (file: string, page: number): string => `${file}#${page}`;

export function describeTornPages(
  truth: readonly PageTruth[],
  before: DatadirScan,
  copies: readonly DoublewriteCopy[],
  checkpointLsn: number | null,
  pending: { inFlight?: ReadonlyMap<string, CopyInFlight[]>; overwritten?: ReadonlyMap<string, CopyOverwritten[]> } = {},
  rules: RecoveryRules = MARIADB_RULES,
  unwrittenCopies: readonly DoublewriteCopy[] = [],
  redo: RedoFileOps | null = null,
): TornPage[] {
  const invalid = new Map(before.invalid.map((p) => [key(p.file, p.page), `${p.reason}: ${p.detail}`]));
  const invalidKeys = new Set(invalid.keys());
  const torn = truth.filter((t) => t.class === 'torn');
  // page 0 first: a file whose page 0 cannot be restored is never opened, and loses every page
  const ordered = [...torn.filter((t) => t.page === 0), ...torn.filter((t) => t.page !== 0)];
  const unopenable = new Set<string>();
  const unopenableIfWritten = new Set<string>(); // were the copies in unwritten extents readable
  const described = new Map<PageTruth, TornPage>();
  for (const t of ordered) {
    const file = before.files.find((f) => f.file === t.file);
    const space = file?.space ?? null;
    const page0 = t.page === 0 && file ? describePage0(before.datadir, t.file, space, file.format.pageSize, invalidKeys, rules.flavor, redo) : null;
    const identity = t.page === 0
      ? { space, page: 0, page0Path: page0?.path ?? 'none' }
      : { space, page: t.page, fileOpens: !unopenable.has(t.file) };
    const doublewrite = judgeDoublewrite(identity, copies, checkpointLsn, rules);
    const flying = space === null ? undefined : pending.inFlight?.get(inFlightKey(space, t.page));
    if (flying) doublewrite.inFlight = flying;
    const overwritten = space === null ? undefined : pending.overwritten?.get(inFlightKey(space, t.page));
    if (overwritten) doublewrite.overwritten = overwritten;
    const unwritten = unwrittenCopies.length ? judgeDoublewrite(identity, unwrittenCopies, checkpointLsn, rules).copies : [];
    const ifWritten = t.page === 0 ? identity : { ...identity, fileOpens: !unopenableIfWritten.has(t.file) };
    const wouldRestore = judgeDoublewrite(ifWritten, [...copies, ...unwrittenCopies], checkpointLsn, rules).restorable;
    if (unwritten.length) doublewrite.unwritten = { copies: unwritten, wouldRestore };
    if (t.page === 0 && !wouldRestore) unopenableIfWritten.add(t.file);
    const freedBefore = file ? isPageFree(join(before.datadir, t.file), t.page, file.format.pageSize) === true : false;
    if (t.page === 0 && !doublewrite.restorable) unopenable.add(t.file);
    described.set(t, {
      file: t.file,
      space,
      page: t.page,
      unitsNew: t.unitsNew,
      writes: t.writeSeqs.length,
      durableLsn: t.durableLsn,
      newestLsn: t.newestLsn,
      ...(t.newestDigest ? { newestDigest: t.newestDigest } : {}),
      invalidBefore: invalid.get(key(t.file, t.page)) ?? null,
      validAfter: null,
      lsnAfter: null,
      currentAfter: null,
      attribution: null,
      doublewrite,
      ...(freedBefore ? { freedBefore } : {}),
      ...(t.inPieces ? { inPieces: t.inPieces } : {}),
      ...(t.partlyUnwritten ? { partlyUnwritten: t.partlyUnwritten } : {}),
      ...(page0 ? { page0: { ...page0, serverLog: [], finding: null } } : {}),
    });
  }
  return torn.map((t) => described.get(t)!);
}
