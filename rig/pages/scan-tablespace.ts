/**
 * Verifies every page of one tablespace file, reading it in large chunks. The page size and
 * checksum format come from the FSP flags on page 0 unless the caller passes them (ibdata2 and
 * later continue ibdata1, whose page 0 alone carries the flags).
 *
 * A page 0 that holds only zeros carries no flags and no space id: the server has not written it
 * yet (a tablespace created moments before the cut, whose later pages reached the disk first).
 * Its file is verified in the format the caller names for such files (the system tablespace's:
 * the server gives the tablespaces it creates its own format), or the default one, assumed; and
 * its space id is the one its pages name, chosen the way InnoDB chooses it when it cannot read
 * page 0 (space-survey.ts). Without a chosen id the pages' space ids go unchecked.
 *
 * Pages wholly inside extents the filesystem keeps unwritten (allocated, never written: they read
 * as zeros) are counted as the zero pages they are without being read; most of a tablespace the
 * server extends ahead of its use is such. The extents are asked for once the kernel has written
 * out the file's dirty pages, so a page written since is read like any other. Where a file's
 * extents cannot be read (a filesystem without FIEMAP, pfmount not built), every page is read.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { FIEMAP_EXTENT_UNPLACED, FIEMAP_EXTENT_UNWRITTEN, fileExtents } from '../../faults/loop-calls.js';
import { readSpaceHeader, type SpaceFormat } from './fsp-flags.js';
import { FIL_PAGE_SPACE_ID, readU32 } from './page-format.js';
import type { PageVerdicts } from './page-verdicts.js';
import { surveySpaceIdIn, type SpaceSurvey } from './space-survey.js';
import { verifyPage, type PageFaultKind } from './verify-page.js';

export interface InvalidPage {
  file: string;
  space: number | null;
  page: number;
  reason: PageFaultKind;
  detail: string;
}

export interface TablespaceScan {
  file: string;
  /** From page 0, or from the pages' own headers when page 0 is blank; null when none was chosen. */
  space: number | null;
  format: SpaceFormat;
  /** True when page 0's flags were unreadable and the default format was assumed. */
  formatAssumed: boolean;
  /** Page 0 holds only zeros: where the format came from, and how the space id was chosen. */
  blankPage0?: BlankPage0;
  pages: number;
  zeroPages: number;
  /** Pages left out on purpose (the doublewrite area of the system tablespace). */
  skippedPages: number;
  invalid: InvalidPage[];
  /** Why the whole file was not verified, when it was not. */
  unverified?: string;
}

export interface BlankPage0 {
  formatFrom: 'system tablespace' | 'assumed';
  survey: SpaceSurvey;
}

export interface ScanOptions {
  /** Name used in reports; defaults to ./<basename>. */
  rel?: string;
  /** Page number of the file's first page (ibdata2 continues after ibdata1). */
  firstPage?: number;
  format?: SpaceFormat;
  spaceId?: number;
  /** The format of a file whose page 0 holds only zeros (the system tablespace's). */
  blankPage0Format?: SpaceFormat;
  /** Pages (by tablespace page number) not to judge as live pages. */
  skipPage?: (pageNo: number) => boolean;
  /** Verdicts remembered from earlier scans of the same files (./page-verdicts.ts). */
  verdicts?: PageVerdicts;
}

export const DEFAULT_FORMAT: SpaceFormat = { fullCrc32: true, pageSize: 16384, zipSize: 0 };
const CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Chunk buffers kept between scans: a scan reads every file of a datadir, and a fresh 8 MiB buffer
 * per file (about 180 MiB per explore state, before and after its recovery) made the garbage
 * collector run for the memory outside its heap. Scans may run at once (explore's lanes), so each
 * takes a buffer of its own and gives it back; pages are judged from it synchronously and nothing
 * keeps a view of it.
 */
const spareChunks: Buffer[] = [];
const SPARE_CHUNKS_KEPT = 4;

function takeChunk(): Buffer {
  return spareChunks.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
}

function giveBack(chunk: Buffer): void {
  if (spareChunks.length < SPARE_CHUNKS_KEPT) spareChunks.push(chunk);
}

export async function scanTablespace(path: string, options: ScanOptions = {}): Promise<TablespaceScan> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const { space, format, formatAssumed, blankPage0 } = identify(path, head.subarray(0, bytesRead), options);
    const scan: TablespaceScan = {
      file: options.rel ?? `./${basename(path)}`, space, format, formatAssumed,
      ...(blankPage0 ? { blankPage0 } : {}),
      pages: 0, zeroPages: 0, skippedPages: 0, invalid: [],
    };
    if (format.zipSize) {
      scan.unverified = 'ROW_FORMAT=COMPRESSED pages are not verified';
      return scan;
    }
    await scanChunks(file, scan, options, await unwrittenRanges(path));
    return scan;
  } finally {
    await file.close();
  }
}

function identify(path: string, head: Uint8Array, options: ScanOptions): {
  space: number | null; format: SpaceFormat; formatAssumed: boolean; blankPage0?: BlankPage0;
} {
  if (options.format) {
    return { space: options.spaceId ?? 0, format: options.format, formatAssumed: false };
  }
  if (head.length < FIL_PAGE_SPACE_ID + 4 + 20) {
    return { space: options.spaceId ?? 0, format: DEFAULT_FORMAT, formatAssumed: true };
  }
  const header = readSpaceHeader(head);
  if (header.blank) {
    const format = options.blankPage0Format ?? DEFAULT_FORMAT;
    const survey = surveySpaceIdIn(path, format);
    const formatFrom = options.blankPage0Format ? 'system tablespace' : 'assumed';
    return { space: options.spaceId ?? survey.chosen, format, formatAssumed: formatFrom === 'assumed', blankPage0: { formatFrom, survey } };
  }
  // the FSP header's space id, or the FIL header's when the two disagree and the FIL one is sane
  const space = options.spaceId ?? (header.format ? header.spaceId : readU32(head, FIL_PAGE_SPACE_ID));
  return { space, format: header.format ?? DEFAULT_FORMAT, formatAssumed: header.format === null };
}

interface FileRange {
  offset: number;
  length: number;
}

/** The file's unwritten extents in file order, or none where its extents cannot be read. */
async function unwrittenRanges(path: string): Promise<FileRange[]> {
  try {
    const extents = await fileExtents(path, undefined, true);
    return extents.filter((e) => e.flags & FIEMAP_EXTENT_UNWRITTEN && !(e.flags & FIEMAP_EXTENT_UNPLACED)).map((e) => ({ offset: e.logical, length: e.length }));
  } catch {
    return [];
  }
}

/** Every whole page of the file judged: read in chunks, or counted as zeros when wholly in `unwritten`. */
async function scanChunks(file: import('node:fs/promises').FileHandle, scan: TablespaceScan, options: ScanOptions, unwritten: FileRange[]) {
  const ps = scan.format.pageSize;
  const firstPage = options.firstPage ?? 0;
  const size = (await file.stat()).size;
  const end = size - (size % ps);
  const chunk = takeChunk(); // a page is at most 64 KiB
  const buf = chunk.subarray(0, chunk.length - (chunk.length % ps));
  let next = 0; // the first unwritten range that may lie ahead
  try {
    for (let position = 0; position < end; ) {
      while (next < unwritten.length && unwritten[next]!.offset + unwritten[next]!.length <= position) next++;
      const zeros = unwritten[next];
      // whole pages from the first page boundary inside the range to the last
      const zerosFrom = zeros ? Math.ceil(zeros.offset / ps) * ps : end;
      const zerosTo = zeros ? Math.min(end, Math.floor((zeros.offset + zeros.length) / ps) * ps) : end;
      if (zerosFrom <= position && position < zerosTo) {
        for (; position < zerosTo; position += ps) zeroPage(firstPage + position / ps, scan, options);
        continue;
      }
      const want = Math.min(end, position + buf.length, zerosFrom > position && zerosFrom < zerosTo ? zerosFrom : end) - position;
      const { bytesRead } = await file.read(buf, 0, want, position);
      const whole = bytesRead - (bytesRead % ps);
      for (let at = 0; at < whole; at += ps) judgePage(buf, at, firstPage + (position + at) / ps, scan, options);
      position += whole;
      if (bytesRead < want) break; // the file ended early
    }
  } finally {
    giveBack(chunk);
  }
}

/** A page in an unwritten extent: all zeros, as verifyPage finds such a page. */
function zeroPage(pageNo: number, scan: TablespaceScan, options: ScanOptions): void {
  scan.pages++;
  if (options.skipPage?.(pageNo)) scan.skippedPages++;
  else scan.zeroPages++;
}

/** The page at buf[at, at + page size). */
function judgePage(buf: Buffer, at: number, pageNo: number, scan: TablespaceScan, options: ScanOptions): void {
  scan.pages++;
  if (options.skipPage?.(pageNo)) {
    scan.skippedPages++;
    return;
  }
  const ctx = { format: scan.format, pageNo, spaceId: scan.space };
  const ps = scan.format.pageSize;
  const verdict = options.verdicts ? options.verdicts.verifyIn(scan.file, buf, at, ps, ctx) : verifyPage(buf.subarray(at, at + ps), ctx);
  if (verdict.valid) {
    if (verdict.zero) scan.zeroPages++;
    return;
  }
  const detail = verdict.faults.map((f) => f.detail).join('; ');
  scan.invalid.push({ file: scan.file, space: scan.space, page: pageNo, reason: verdict.reason, detail });
}
