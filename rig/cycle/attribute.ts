/**
 * What became of each torn page once the server recovered, from the post-recovery scan and the
 * page itself: valid or not, its LSN, whether it is at least as new as the newest version written
 * to it before the cut (a page restored to an older version lost a write), and what restored it.
 * A page under an older LSN whose content equals the newest version's (checksums and LSN fields
 * aside) lost nothing: the server wrote that version with its data unchanged.
 * `doublewrite`: the server's rules accepted a copy of it; `redo`: no accepted copy, the log
 * rebuilt it (a page the log initialises, say); `unexplained`: valid again, but its newest LSN
 * before the cut or its LSN after is unknown, so neither can be shown. A page the scan did not
 * reach stays unknown (validAfter null), never valid by default; a page past the end of a file
 * that recovery shrank, or that its tablespace has freed, holds no data (freedAfter).
 */
import { join } from 'node:path';
import type { DatadirScan } from '../pages/index.js';
import { isPageFree } from '../pages/page-allocation.js';
import { readPageSync } from '../pages/read-page.js';
import { isAllZero, pageContentDigest, readLsn } from '../pages/page-format.js';
import type { Attribution, TornPage } from '../results/types.js';

function attribute(p: TornPage, lsnAfter: number | null): Attribution {
  if (p.newestLsn === null || lsnAfter === null) return 'unexplained';
  return p.doublewrite.restorable ? 'doublewrite' : 'redo';
}

export function attributeAfterRecovery(pages: readonly TornPage[], after: DatadirScan, datadir: string): TornPage[] {
  const invalid = new Set(after.invalid.map((p) => `${p.file}#${p.page}`));
  return pages.map((p): TornPage => {
    const file = after.files.find((f) => f.file === p.file);
    if (!file || file.unverified) return { ...p, validAfter: null };
    const pageSize = file.format.pageSize;
    if (p.page >= file.pages) return { ...p, validAfter: null, freedAfter: true }; // the file shrank past it
    const validAfter = !invalid.has(`${p.file}#${p.page}`);
    const bytes = readPageSync(join(datadir, p.file), p.page, pageSize);
    const lsnAfter = bytes && !isAllZero(bytes) ? readLsn(bytes) : null;
    const freed = isPageFree(join(datadir, p.file), p.page, pageSize) === true;
    const byLsn = validAfter && lsnAfter !== null && p.newestLsn !== null ? lsnAfter >= p.newestLsn : null;
    const byContent = byLsn === false && p.newestDigest !== undefined && bytes !== null && pageContentDigest(bytes) === p.newestDigest;
    const currentAfter = byLsn === null ? null : byLsn || byContent;
    return {
      ...p,
      validAfter,
      lsnAfter,
      currentAfter,
      ...(currentAfter ? { currentBy: byContent ? ('content' as const) : ('lsn' as const) } : {}),
      attribution: validAfter && !freed ? attribute(p, lsnAfter) : null, // a freed page holds nothing to restore
      ...(freed ? { freedAfter: true } : {}),
    };
  });
}
