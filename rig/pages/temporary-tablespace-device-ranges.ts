/**
 * Where the server's temporary tablespaces sit on the device: `ibtmp1` (MariaDB and MySQL) and
 * MySQL 8's session temporary tablespaces `#innodb_temp/*.ibt`. The server recreates them at
 * every start and recovery never reads them, so a cut among their writes tests nothing: the disk's
 * armed trigger is told not to count them (faults/helper: skip-range). MySQL 9.7 writes them in
 * a burst of about 45 pages early in a load, which used to fill an `armed 16` count on its own.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deviceRangesOf, mergeAdjacent, type DeviceRange } from './device-ranges.js';
import { readExtents } from './filefrag.js';

const SESSION_TEMP_DIR = '#innodb_temp';

export function temporaryTablespacePaths(datadir: string): string[] {
  const global = readdirSync(datadir).filter((f) => /^ibtmp\d+$/.test(f)).map((f) => join(datadir, f));
  const sessionDir = join(datadir, SESSION_TEMP_DIR);
  const session = existsSync(sessionDir) ? readdirSync(sessionDir).filter((f) => f.endsWith('.ibt')).map((f) => join(sessionDir, f)) : [];
  return [...global, ...session];
}

export async function temporaryTablespaceDeviceRanges(datadir: string): Promise<DeviceRange[]> {
  const paths = temporaryTablespacePaths(datadir);
  if (paths.length === 0) return [];
  const extents = await readExtents(paths);
  return mergeAdjacent(paths.flatMap((p) => deviceRangesOf(extents.get(p) ?? [], 0, Number.MAX_SAFE_INTEGER)));
}
