/**
 * The torn pages of a crash image as the record shows them, before the server touches it: the
 * truth from content joined with the pre-recovery scan (why each page is invalid) and with the
 * doublewrite copies the image holds, judged by the server's rules. Page 0's rule needs pages 1-3
 * of its file as the crash image holds them, so this runs before recovery changes anything; and a
 * file whose page 0 cannot be restored loses every other page too, so page 0 is judged first.
 */
import { join } from 'node:path';
import type { DatadirScan, DoublewriteCopy } from '../pages/index.js';
import { isPageFree } from '../pages/page-allocation.js';
import { isAllZero } from '../pages/page-format.js';
import { readPageSync } from '../pages/read-page.js';
import type { TornPage } from '../results/types.js';
import { judgeDoublewrite } from './doublewrite-rules.js';
import type { PageTruth } from './page-truth.js';

const key = (file: string, page: number): string => `${file}#${page}`;

/** Whether pages 1-3 of the file are valid (not in the scan's invalid list) and not all zeros. */
function firstPagesUsable(datadir: string, file: string, pageSize: number, invalid: ReadonlySet<string>): boolean {
  if ([1, 2, 3].some((n) => invalid.has(key(file, n)))) return false;
  return [1, 2, 3].every((n) => {
    const page = readPageSync(join(datadir, file), n, pageSize);
    return page !== null && !isAllZero(page);
  });
}

export function describeTornPages(
  truth: readonly PageTruth[],
  before: DatadirScan,
  copies: readonly DoublewriteCopy[],
  checkpointLsn: number | null,
): TornPage[] {
  const invalid = new Map(before.invalid.map((p) => [key(p.file, p.page), `${p.reason}: ${p.detail}`]));
  const invalidKeys = new Set(invalid.keys());
  const torn = truth.filter((t) => t.class === 'torn');
  // page 0 first: a file whose page 0 cannot be restored is never opened, and loses every page
  const ordered = [...torn.filter((t) => t.page === 0), ...torn.filter((t) => t.page !== 0)];
  const unopenable = new Set<string>();
  const described = new Map<PageTruth, TornPage>();
  for (const t of ordered) {
    const file = before.files.find((f) => f.file === t.file);
    const space = file?.space ?? null;
    const identity = t.page === 0
      ? { space, page: 0, firstPagesUsable: file ? firstPagesUsable(before.datadir, t.file, file.format.pageSize, invalidKeys) : false }
      : { space, page: t.page, fileOpens: !unopenable.has(t.file) };
    const doublewrite = judgeDoublewrite(identity, copies, checkpointLsn);
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
      invalidBefore: invalid.get(key(t.file, t.page)) ?? null,
      validAfter: null,
      lsnAfter: null,
      currentAfter: null,
      attribution: null,
      doublewrite,
      ...(freedBefore ? { freedBefore } : {}),
    });
  }
  return torn.map((t) => described.get(t)!);
}
