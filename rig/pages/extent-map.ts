/**
 * Maps device byte ranges to the file pages they hit, for a datadir on a mounted filesystem:
 * every regular file's FIEMAP extents, indexed by device offset. Tablespace files also carry
 * their page size (from FSP flags) and first page number (ibdata2 continues ibdata1), so a hit
 * names (file, page, byte range within the page); other files (redo log, .frm) get page null.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { badInput } from '../errors.js';
import { readExtents, type FileExtent } from './filefrag.js';
import { readSpaceFormat } from './system-tablespace.js';
import { classifyTablespace, type TablespaceKind } from './tablespace-files.js';

export interface MappedFile {
  rel: string;
  kind: TablespaceKind | null;
  size: number;
  /** Page size for tablespaces (doublewrite files: their slot size); null for other files. */
  pageSize: number | null;
  firstPage: number;
  extents: FileExtent[];
  /**
   * When the file was created (wall clock, microseconds), as the filesystem keeps it; absent
   * where it keeps none. A write the disk saw before then was to blocks that were not this
   * file's yet: a file created during the load may hold blocks another file had then.
   */
  bornUs?: number;
}

interface IndexedExtent extends FileExtent {
  file: MappedFile;
}

export interface ExtentMap {
  mountPoint: string;
  datadir: string;
  files: MappedFile[];
  /** All extents of all files, sorted by device offset. */
  byDevice: IndexedExtent[];
}

export async function buildExtentMap(mountPoint: string, datadirRel = '.'): Promise<ExtentMap> {
  const datadir = join(mountPoint, datadirRel);
  if (!(await stat(datadir).catch(() => null))?.isDirectory()) {
    throw badInput(`${datadir} is not a directory: give the mount point and the datadir inside it`);
  }
  const found = await walk(datadir, '.', true);
  const extents = await readExtents(found.map((f) => f.path));
  const files: MappedFile[] = [];
  for (const f of found) {
    files.push({
      rel: f.rel, kind: f.kind, size: f.size, pageSize: null, firstPage: 0, extents: extents.get(f.path) ?? [],
      ...(f.bornUs ? { bornUs: f.bornUs } : {}),
    });
  }
  await assignPages(files, found.map((f) => f.path));
  const byDevice = files.flatMap((file) => file.extents.map((e) => ({ ...e, file })))
    .sort((a, b) => a.physical - b.physical);
  return { mountPoint, datadir, files, byDevice };
}

interface FoundFile { rel: string; path: string; kind: TablespaceKind | null; size: number; bornUs: number }

/** Every regular file below `dir`, in directory order; the entries of a directory are stat'ed at once. */
async function walk(dir: string, rel: string, topLevel: boolean): Promise<FoundFile[]> {
  const found = await Promise.all((await readdir(dir, { withFileTypes: true })).map(async (entry): Promise<FoundFile[]> => {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'lost+found') return walk(path, `${rel}/${entry.name}`, false);
    if (!entry.isFile()) return [];
    const kind = classifyTablespace(entry.name, topLevel);
    const info = await stat(path, { bigint: true }); // birth time 0: the filesystem keeps none
    return [{ rel: `${rel}/${entry.name}`, path, kind, size: Number(info.size), bornUs: Number(info.birthtimeNs / 1000n) }];
  }));
  return found.flat();
}

/** Page size per tablespace from its page 0; system files continue ibdata1's numbering. */
async function assignPages(files: MappedFile[], paths: string[]): Promise<void> {
  const system = files.map((f, i) => ({ f, path: paths[i]! })).filter((x) => x.f.kind === 'system')
    .sort((a, b) => Number(a.f.rel.match(/\d+$/)![0]) - Number(b.f.rel.match(/\d+$/)![0]));
  let systemPageSize: number | null = null;
  let nextSystemPage = 0;
  for (const { f, path } of system) {
    systemPageSize ??= (await readSpaceFormat(path))?.format.pageSize ?? 16384;
    f.pageSize = systemPageSize;
    f.firstPage = nextSystemPage;
    nextSystemPage += Math.floor(f.size / systemPageSize);
  }
  await Promise.all(files.map(async (f, i) => {
    // a page 0 of zeros names no page size (not written yet): the server gave the file the system tablespace's
    if (f.kind === 'undo' || f.kind === 'table') f.pageSize = (await readSpaceFormat(paths[i]!))?.format.pageSize ?? systemPageSize ?? 16384;
    if (f.kind === 'dblwr') f.pageSize = Number(f.rel.match(/#ib_(\d+)_/)![1]);
  }));
}
