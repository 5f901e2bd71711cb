/**
 * Bytes a folder really takes on disk: the blocks each file has allocated (st_blocks * 512), not
 * its length. A cycle's image at the cut is a sparse file of the whole disk's size whose
 * allocated part is what the load wrote, so lengths would overstate evidence by gigabytes.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function allocatedBytes(path: string): number {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return 0; // gone meanwhile: takes nothing
  }
  let total = info.blocks * 512;
  if (info.isDirectory()) {
    for (const name of readdirSync(path)) total += allocatedBytes(join(path, name));
  }
  return total;
}
