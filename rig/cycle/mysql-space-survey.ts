/**
 * How MySQL names the tablespace of a file whose page 0 is torn (Datafile::find_space_id, run
 * by validate_for_recovery before it looks for page 0's doublewrite copy): it reads the first 64
 * pages (fewer in a smaller file), counts each page that verifies (checksum and LSN trailer, not
 * its position) and names a space id above 0 in its header, and chooses a space id that accounts
 * for every such page, or for all but 1, 2 or 3 of them. MySQL 9.7.4 logs the survey ("Page
 * size:16384. Pages to analyze:64", "VALID: space:4 page_no:1 ...", "space_id:4, Number of pages
 * matched: 43/43", "Chosen space:4"). Only the file's own page size is surveyed here. MySQL tries
 * the smaller sizes first (1 KiB up) and takes the first size where any slice passes its
 * compressed-page check; on an uncompressed tablespace that is almost never, but it was seen once
 * (docs/findings/mysql-page0-survey.md: a 2 KiB slice of an index page chose space 68085760). The
 * rig does not predict that from the bytes; the finding is read from the server's own log.
 */
import { surveySpaceIdIn, type SpaceSurvey } from '../pages/space-survey.js';

export type { SpaceSurvey };

/** MySQL's survey: its tablespaces use the legacy (crc32) page format. */
export function surveySpaceId(path: string, pageSize: number): SpaceSurvey {
  return surveySpaceIdIn(path, { fullCrc32: false, pageSize, zipSize: 0 });
}
