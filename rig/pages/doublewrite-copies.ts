/**
 * The page copies a doublewrite buffer holds, judged the way recovery would judge them:
 * MariaDB (and MySQL before 8.0.20) keep them in two blocks of the system tablespace; MySQL
 * 8.0.20+ in #ib_<pagesize>_<n>.dblwr files, which are plain sequences of page images (empty
 * slots are zero). Each copy names its page by the space id and page number in its own header.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DoublewriteArea } from './doublewrite-area.js';
import type { SpaceFormat } from './fsp-flags.js';
import { isAllZero, readPageHeader } from './page-format.js';
import { verifyPage, type PageFaultKind } from './verify-page.js';

export interface DoublewriteCopy {
  space: number;
  page: number;
  lsn: number;
  valid: boolean;
  reason?: PageFaultKind;
  /** Where the copy sits: ./ibdata1 page 70, or ./#ib_16384_0.dblwr slot 3. */
  source: { file: string; slot: number };
}

/** Space id -> format of that tablespace, when known; unknown spaces get both formats tried. */
export type SpaceFormats = ReadonlyMap<number, SpaceFormat>;

export function judgeCopy(page: Uint8Array, formats: SpaceFormats, source: DoublewriteCopy['source']): DoublewriteCopy {
  const header = readPageHeader(page);
  const known = formats.get(header.spaceId);
  const candidates: SpaceFormat[] = known?.pageSize === page.length
    ? [known]
    : [true, false].map((fullCrc32) => ({ fullCrc32, pageSize: page.length, zipSize: 0 }));
  let verdict = verifyPage(page, { format: candidates[0]!, pageNo: null, spaceId: null });
  for (const format of candidates.slice(1)) {
    if (verdict.valid) break;
    verdict = verifyPage(page, { format, pageNo: null, spaceId: null });
  }
  const copy: DoublewriteCopy = { space: header.spaceId, page: header.pageNo, lsn: header.lsn, valid: verdict.valid, source };
  if (!verdict.valid) copy.reason = verdict.reason;
  return copy;
}

/** Copies in the system tablespace's two doublewrite blocks (all-zero slots are empty). */
export async function readAreaCopies(
  ibdata1: string, rel: string, area: DoublewriteArea, pageSize: number, formats: SpaceFormats,
): Promise<DoublewriteCopy[]> {
  const copies: DoublewriteCopy[] = [];
  const file = await open(ibdata1, 'r');
  try {
    for (const first of area.blocks) {
      const buf = Buffer.alloc(area.blockPages * pageSize);
      const { bytesRead } = await file.read(buf, 0, buf.length, first * pageSize);
      collectCopies(buf.subarray(0, bytesRead), pageSize, formats, (i) => ({ file: rel, slot: first + i }), copies);
    }
  } finally {
    await file.close();
  }
  return copies;
}

/** Page size a MySQL doublewrite file's name declares: #ib_16384_0.dblwr -> 16384. */
export function dblwrFilePageSize(path: string): number | null {
  const m = basename(path).match(/^#ib_(\d+)_\d+\.dblwr$/);
  return m ? Number(m[1]) : null;
}

/** Copies in one MySQL 8.0.20+ doublewrite file: slot i is bytes [i*ps, (i+1)*ps). */
export async function readDblwrFileCopies(path: string, rel: string, formats: SpaceFormats): Promise<DoublewriteCopy[]> {
  const pageSize = dblwrFilePageSize(path);
  if (!pageSize) return [];
  const file = await open(path, 'r');
  try {
    const copies: DoublewriteCopy[] = [];
    const buf = Buffer.alloc(256 * pageSize);
    for (let slot = 0; ; slot += 256) {
      const { bytesRead } = await file.read(buf, 0, buf.length, slot * pageSize);
      collectCopies(buf.subarray(0, bytesRead), pageSize, formats, (i) => ({ file: rel, slot: slot + i }), copies);
      if (bytesRead < buf.length) return copies;
    }
  } finally {
    await file.close();
  }
}

function collectCopies(
  buf: Buffer, pageSize: number, formats: SpaceFormats,
  where: (i: number) => DoublewriteCopy['source'], out: DoublewriteCopy[],
): void {
  for (let i = 0; (i + 1) * pageSize <= buf.length; i++) {
    const page = buf.subarray(i * pageSize, (i + 1) * pageSize);
    if (!isAllZero(page)) out.push(judgeCopy(page, formats, where(i)));
  }
}
