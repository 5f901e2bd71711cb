/**
 * Where the server's live pages sit on the device: the extents of its tablespace files (system,
 * undo, file-per-table), without the doublewrite files, which hold copies. Targeted explore picks
 * count only page writes that land here: a 16 KiB write to the redo log can tear, but tears no page.
 */
import { deviceRangesOf, mergeAdjacent, type DeviceRange } from './device-ranges.js';
import { readExtents } from './filefrag.js';
import { listTablespaceFiles } from './tablespace-files.js';

export async function tablespaceDeviceRanges(datadir: string): Promise<DeviceRange[]> {
  const paths = (await listTablespaceFiles(datadir)).filter((f) => f.kind !== 'dblwr').map((f) => f.path);
  if (paths.length === 0) return [];
  const extents = await readExtents(paths);
  return mergeAdjacent(paths.flatMap((p) => deviceRangesOf(extents.get(p) ?? [], 0, Number.MAX_SAFE_INTEGER)));
}
