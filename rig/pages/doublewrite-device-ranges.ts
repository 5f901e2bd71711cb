/**
 * Where the server keeps its doublewrite copies on the device: the two blocks of the doublewrite
 * area inside ibdata1 (TRX_SYS page 5 names them; rig/pages/doublewrite-area.ts), and MySQL
 * 8.0.20+'s `#ib_<pagesize>_<n>.dblwr` files whole, through FIEMAP. The disk's armed trigger uses
 * them to tell home writes from copies (faults/helper: copy-range).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deviceRangesOf, mergeAdjacent, type DeviceRange } from './device-ranges.js';
import { readExtents } from './filefrag.js';
import { readSystemDoublewriteArea } from './system-tablespace.js';

export async function doublewriteDeviceRanges(datadir: string, pageSize: number): Promise<DeviceRange[]> {
  const ibdata1 = join(datadir, 'ibdata1');
  const dblwr = readdirSync(datadir).filter((f) => /^#ib_\d+_\d+\.dblwr$/.test(f)).map((f) => join(datadir, f));
  const area = existsSync(ibdata1) ? await readSystemDoublewriteArea(ibdata1) : null;
  const paths = [...(area ? [ibdata1] : []), ...dblwr];
  if (paths.length === 0) return [];
  const extents = await readExtents(paths);
  const ranges = dblwr.flatMap((p) => deviceRangesOf(extents.get(p) ?? [], 0, Number.MAX_SAFE_INTEGER));
  if (area) {
    for (const first of area.blocks) {
      ranges.unshift(...deviceRangesOf(extents.get(ibdata1) ?? [], first * pageSize, (first + area.blockPages) * pageSize));
    }
  }
  return mergeAdjacent(ranges);
}
