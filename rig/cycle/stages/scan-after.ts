/**
 * Stage 7, scan (after recovery): verify every page again once the server has shut down, and say of
 * each torn page whether it came back valid and current, and of each invalid page whether its
 * (verified) extent descriptors mark it free. Pages are judged only after a clean shutdown: after
 * a crash, pages rebuilt in memory may never have reached the disk.
 */
import { join } from 'node:path';
import { scanDatadir, type DatadirScan } from '../../pages/index.js';
import { isPageFree } from '../../pages/page-allocation.js';
import type { PageVerdicts } from '../../pages/page-verdicts.js';
import type { InvalidPage, RecoveryRun, TornPage } from '../../results/types.js';
import { attributeAfterRecovery } from '../attribute.js';

export interface AfterScan {
  scan: DatadirScan;
  torn: TornPage[];
  pagesAfter: InvalidPage[];
}

export async function scanAfterRecovery(datadir: string, run: RecoveryRun, torn: TornPage[], verdicts?: PageVerdicts): Promise<AfterScan | null> {
  if (run.readyMs === null || run.shutdown !== 'clean') return null;
  const scan = await scanDatadir(datadir, verdicts);
  const pagesAfter = scan.invalid.map((p): InvalidPage => {
    const pageSize = scan.files.find((f) => f.file === p.file)!.format.pageSize;
    const free = isPageFree(join(datadir, p.file), p.page, pageSize) === true;
    return { file: p.file, space: p.space, page: p.page, reason: `${p.reason}: ${p.detail}`, ...(free ? { free } : {}) };
  });
  return { scan, torn: attributeAfterRecovery(torn, scan, datadir), pagesAfter };
}
