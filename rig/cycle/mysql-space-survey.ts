/**
 * How MySQL names the tablespace of a file whose page 0 is torn (Datafile::find_space_id, run
 * by validate_for_recovery before it looks for page 0's doublewrite copy): it reads the first 64
 * pages (fewer in a smaller file), counts each page that verifies (checksum and LSN trailer, not
 * its position) and names a space id above 0 in its header, and chooses a space id that accounts
 * for every such page, or for all but 1, 2 or 3 of them. MySQL 9.7.4 logs the survey ("Page
 * size:16384. Pages to analyze:64", "VALID: space:4 page_no:1 ...", "space_id:4, Number of pages
 * matched: 43/43", "Chosen space:4"). Only the file's own page size is surveyed here: the smaller
 * sizes MySQL tries first cannot verify on an uncompressed tablespace.
 */
import { readPageSync } from '../pages/read-page.js';
import { FIL_PAGE_SPACE_ID, readU32 } from '../pages/page-format.js';
import { verifyPage } from '../pages/verify-page.js';

const PAGES_TO_ANALYZE = 64;
const PAGES_CORRUPTED = 3; // how many valid pages the chosen space id may miss

export interface SpaceSurvey {
  analyzed: number; // pages read
  valid: number; // pages that verify and name a space id above 0
  chosen: number | null; // the space id MySQL would choose, null if none fits
  matched: number; // valid pages naming the chosen (or most named) space id
}

export function surveySpaceId(path: string, pageSize: number): SpaceSurvey {
  const counts = new Map<number, number>();
  let analyzed = 0;
  let valid = 0;
  for (let n = 0; n < PAGES_TO_ANALYZE; n++) {
    const page = readPageSync(path, n, pageSize);
    if (!page) break;
    analyzed++;
    const space = readU32(page, FIL_PAGE_SPACE_ID);
    if (space === 0) continue;
    const verdict = verifyPage(page, { format: { fullCrc32: false, pageSize, zipSize: 0 }, pageNo: null, spaceId: null });
    if (!verdict.valid) continue;
    valid++;
    counts.set(space, (counts.get(space) ?? 0) + 1);
  }
  const bySpace = [...counts].sort((a, b) => a[0] - b[0]); // MySQL walks a std::map: lowest id first
  for (let missed = 0; missed <= PAGES_CORRUPTED; missed++) {
    for (const [space, n] of bySpace) {
      if (n === valid - missed) return { analyzed, valid, chosen: space, matched: n };
    }
  }
  return { analyzed, valid, chosen: null, matched: Math.max(0, ...counts.values()) };
}
