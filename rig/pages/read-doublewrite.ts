/**
 * readDoublewrite(datadir): every doublewrite copy a datadir holds, whichever server wrote it,
 * each with the page it copies, its LSN and whether it is a valid page image.
 * readUnwrittenDoublewrite: the copies the device holds in ibdata1's doublewrite slots that the
 * filesystem reads as zeros (rig/pages/unwritten-copies.ts).
 */
import { readDblwrFileCopies, readAreaCopies, type DoublewriteCopy } from './doublewrite-copies.js';
import type { ExtentMap } from './extent-map.js';
import type { SpaceFormat } from './fsp-flags.js';
import { readSpaceFormat, readSystemDoublewriteArea } from './system-tablespace.js';
import { listTablespaceFiles, type TablespaceFile } from './tablespace-files.js';
import { readUnwrittenAreaCopies } from './unwritten-copies.js';

/** `listed`: the datadir's tablespace files, where the caller has listed them already. */
export async function readDoublewrite(datadir: string, listed?: Promise<TablespaceFile[]>): Promise<DoublewriteCopy[]> {
  const files = await (listed ?? listTablespaceFiles(datadir));
  const formats = await readSpaceFormats(files);
  const copies: DoublewriteCopy[] = [];
  const ibdata1 = files.find((f) => f.kind === 'system' && f.rel === './ibdata1');
  if (ibdata1) {
    const area = await readSystemDoublewriteArea(ibdata1.path);
    const pageSize = formats.get(0)?.pageSize ?? 16384;
    if (area) copies.push(...(await readAreaCopies(ibdata1.path, ibdata1.rel, area, pageSize, formats)));
  }
  for (const f of files.filter((x) => x.kind === 'dblwr')) {
    copies.push(...(await readDblwrFileCopies(f.path, f.rel, formats)));
  }
  return copies;
}

/** `image`: the device image the datadir's filesystem lives on; `extents`: that filesystem's map of it. */
export async function readUnwrittenDoublewrite(datadir: string, image: string, extents: ExtentMap, listed?: Promise<TablespaceFile[]>): Promise<DoublewriteCopy[]> {
  const files = await (listed ?? listTablespaceFiles(datadir));
  const ibdata1 = files.find((f) => f.kind === 'system' && f.rel === './ibdata1');
  const mapped = extents.files.find((f) => f.rel === './ibdata1');
  const area = ibdata1 ? await readSystemDoublewriteArea(ibdata1.path) : null;
  if (!ibdata1 || !mapped || !area) return [];
  const formats = await readSpaceFormats(files);
  return readUnwrittenAreaCopies(image, mapped, area, formats.get(0)?.pageSize ?? 16384, formats);
}

/** Each tablespace's format from its page 0, keyed by space id (ibdata1 is space 0). */
async function readSpaceFormats(files: TablespaceFile[]): Promise<Map<number, SpaceFormat>> {
  const spaces = files.filter((f) => f.kind !== 'dblwr' && (f.kind !== 'system' || f.rel === './ibdata1'));
  const headers = await Promise.all(spaces.map((f) => readSpaceFormat(f.path)));
  const formats = new Map<number, SpaceFormat>();
  for (const header of headers) if (header) formats.set(header.spaceId, header.format); // in file order: a later file's wins, as before
  return formats;
}
