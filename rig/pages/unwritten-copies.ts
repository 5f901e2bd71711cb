/**
 * Doublewrite copies on the device that the filesystem does not show. ext4 and xfs preallocate
 * (fallocate) the system tablespace's pages as unwritten extents, which read as zeros; the first
 * write into one lands on the device, and the extent becomes written only when the filesystem's
 * journal commits that change: an fsync of the file does it, and
 * innodb_flush_method=O_DIRECT_NO_FSYNC never asks for one. Cut before the commit, the crash image
 * keeps the copy's bytes under an extent still marked unwritten, and the server reads zeros in
 * that slot. This reads each doublewrite slot of ./ibdata1 that lies in such an extent from the
 * device image itself, at its physical offset, so a record can show which copies the filesystem
 * lost.
 */
import { open } from 'node:fs/promises';
import type { DoublewriteArea } from './doublewrite-area.js';
import { judgeCopy, type DoublewriteCopy, type SpaceFormats } from './doublewrite-copies.js';
import type { MappedFile } from './extent-map.js';
import { isAllZero } from './page-format.js';

/** The device offset of each of the file's pages that lies whole in an unwritten extent. */
function unwrittenPages(file: MappedFile, pages: Iterable<number>, pageSize: number): Map<number, number> {
  const found = new Map<number, number>();
  for (const page of pages) {
    const at = (page - file.firstPage) * pageSize;
    const extent = file.extents.find((e) => e.unwritten && e.logical <= at && at + pageSize <= e.logical + e.length);
    if (extent) found.set(page, extent.physical + (at - extent.logical));
  }
  return found;
}

/** The non-zero copies in doublewrite slots that the crash image's filesystem reads as zeros. */
export async function readUnwrittenAreaCopies(
  image: string, ibdata1: MappedFile, area: DoublewriteArea, pageSize: number, formats: SpaceFormats,
): Promise<DoublewriteCopy[]> {
  const slots = area.blocks.flatMap((first) => Array.from({ length: area.blockPages }, (_, i) => first + i));
  const hidden = unwrittenPages(ibdata1, slots, pageSize);
  if (!hidden.size) return [];
  const device = await open(image, 'r');
  try {
    const read = await Promise.all([...hidden].map(async ([slot, physical]) => {
      const page = Buffer.alloc(pageSize);
      const { bytesRead } = await device.read(page, 0, pageSize, physical);
      return bytesRead === pageSize && !isAllZero(page) ? judgeCopy(page, formats, { file: ibdata1.rel, slot }) : null;
    }));
    return read.filter((copy): copy is DoublewriteCopy => copy !== null);
  } finally {
    await device.close();
  }
}
