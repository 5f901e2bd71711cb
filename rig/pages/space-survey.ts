/**
 * Which tablespace a file holds when its page 0 cannot say, the way InnoDB itself finds out
 * (Datafile::find_space_id, in MySQL and MariaDB alike): read the first 64 pages (fewer in a
 * smaller file), count each page that verifies in the given format (checksum and LSN trailer, not
 * its position) and names a space id above 0 in its header, and choose a space id that accounts
 * for every such page, or for all but 1, 2 or 3 of them, lowest id first.
 */
import type { SpaceFormat } from './fsp-flags.js';
import { FIL_PAGE_SPACE_ID, readU32 } from './page-format.js';
import { readPageSync } from './read-page.js';
import { verifyPage } from './verify-page.js';

const PAGES_TO_ANALYZE = 64;
const PAGES_CORRUPTED = 3; // how many valid pages the chosen space id may miss

export interface SpaceSurvey {
  analyzed: number; // pages read
  valid: number; // pages that verify and name a space id above 0
  chosen: number | null; // the space id chosen, null if none fits
  matched: number; // valid pages naming the chosen (or most named) space id
}

export function surveySpaceIdIn(path: string, format: SpaceFormat): SpaceSurvey {
  const counts = new Map<number, number>();
  let analyzed = 0;
  let valid = 0;
  for (let n = 0; n < PAGES_TO_ANALYZE; n++) {
    const page = readPageSync(path, n, format.pageSize);
    if (!page) break;
    analyzed++;
    const space = readU32(page, FIL_PAGE_SPACE_ID);
    if (space === 0) continue;
    const verdict = verifyPage(page, { format, pageNo: null, spaceId: null });
    if (!verdict.valid) continue;
    valid++;
    counts.set(space, (counts.get(space) ?? 0) + 1);
  }
  const bySpace = [...counts].sort((a, b) => a[0] - b[0]); // InnoDB walks a std::map: lowest id first
  for (let missed = 0; missed <= PAGES_CORRUPTED; missed++) {
    for (const [space, n] of bySpace) {
      if (n === valid - missed) return { analyzed, valid, chosen: space, matched: n };
    }
  }
  return { analyzed, valid, chosen: null, matched: Math.max(0, ...counts.values()) };
}
