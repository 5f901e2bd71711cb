/**
 * Judges one page the way InnoDB's buf_page_is_corrupted does (non-strict checksum mode), plus
 * the position checks a reader of the file can make: the page number and space id in the header
 * must match where the page sits. All-zero pages are valid (allocated, never written).
 */
import { crc32c } from './crc32c.js';
import { crc32PageChecksum, fullCrc32Checksum, innodbNewChecksum, innodbOldChecksum } from './checksums.js';
import type { SpaceFormat } from './fsp-flags.js';
import {
  FIL_PAGE_END_LSN_OLD_CHKSUM, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_LSN, FIL_PAGE_SPACE_OR_CHKSUM,
  isAllZero, readPageHeader, readU32,
} from './page-format.js';

export type PageFaultKind = 'lsn-mismatch' | 'checksum-mismatch' | 'page-number-mismatch' | 'space-id-mismatch';

export interface PageFault {
  kind: PageFaultKind;
  detail: string;
}

export type PageVerdict =
  | { valid: true; zero: boolean }
  | { valid: false; reason: PageFaultKind; faults: PageFault[] };

export interface PageContext {
  format: SpaceFormat;
  /** The page number this page's position implies; null skips the check (doublewrite copies). */
  pageNo: number | null;
  /** The tablespace's id from its page 0; null skips the check. */
  spaceId: number | null;
}

/** No-checksum marker that innodb_checksum_algorithm=none wrote. */
const NO_CHECKSUM_MAGIC = 0xdeadbeef;

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;

export function verifyPage(page: Uint8Array, ctx: PageContext): PageVerdict {
  if (page.length !== ctx.format.pageSize) {
    throw new RangeError(`page buffer is ${page.length} bytes, the tablespace's page size is ${ctx.format.pageSize}`);
  }
  if (isAllZero(page)) return { valid: true, zero: true };
  const faults = ctx.format.fullCrc32 ? fullCrc32Faults(page) : legacyFaults(page);
  if (faults === 'zero') return { valid: true, zero: true };
  faults.push(...positionFaults(page, ctx));
  return faults.length === 0 ? { valid: true, zero: false } : { valid: false, reason: faults[0]!.kind, faults };
}

function lsnFault(page: Uint8Array, trailerAt: number): PageFault[] {
  const head = readU32(page, FIL_PAGE_LSN + 4);
  const tail = readU32(page, trailerAt);
  if (head === tail) return [];
  return [{ kind: 'lsn-mismatch', detail: `LSN low word ${hex(head)} in the header, ${hex(tail)} in the trailer` }];
}

/** page_compressed full_crc32 pages flag bit 15 of the page type; the rest is the size / 256. */
const FCRC32_COMPRESSED = 0x8000;

function fullCrc32Faults(page: Uint8Array): PageFault[] {
  const type = (page[24]! << 8) | page[25]!;
  if (type & FCRC32_COMPRESSED) return compressedFullCrc32Faults(page, (type & ~FCRC32_COMPRESSED) << 8);
  const ps = page.length;
  const stored = readU32(page, ps - 4);
  const computed = fullCrc32Checksum(page);
  // an encrypted page (key version at 0) keeps no plain LSN copy in its trailer
  const faults = readU32(page, FIL_PAGE_SPACE_OR_CHKSUM) === 0 ? lsnFault(page, ps - 8) : [];
  if (stored !== computed) {
    faults.push({ kind: 'checksum-mismatch', detail: `full_crc32 stored ${hex(stored)}, computed ${hex(computed)}` });
  }
  return faults;
}

/** A page_compressed page: CRC-32C of its payload sits in the payload's last 4 bytes. */
function compressedFullCrc32Faults(page: Uint8Array, size: number): PageFault[] {
  if (size < 38 + 4 || size >= page.length) {
    return [{ kind: 'checksum-mismatch', detail: `page_compressed size ${size} is impossible for a ${page.length}-byte page` }];
  }
  const stored = readU32(page, size - 4);
  const computed = crc32c(page, 0, size - 4);
  if (stored === computed) return [];
  return [{ kind: 'checksum-mismatch', detail: `page_compressed full_crc32 stored ${hex(stored)}, computed ${hex(computed)}` }];
}

function legacyFaults(page: Uint8Array): PageFault[] | 'zero' {
  const ps = page.length;
  const faults = lsnFault(page, ps - FIL_PAGE_END_LSN_OLD_CHKSUM + 4);
  const field1 = readU32(page, FIL_PAGE_SPACE_OR_CHKSUM);
  const field2 = readU32(page, ps - FIL_PAGE_END_LSN_OLD_CHKSUM);
  // old servers wrote a flush LSN into otherwise empty first pages: ignore that field
  if (field1 === 0 && field2 === 0 && isAllZero(page, 0, FIL_PAGE_FILE_FLUSH_LSN) &&
      isAllZero(page, FIL_PAGE_FILE_FLUSH_LSN + 8)) return 'zero';
  if (!legacyChecksumOk(page, field1, field2)) {
    faults.push({
      kind: 'checksum-mismatch',
      detail: `stored ${hex(field1)}/${hex(field2)}, crc32 ${hex(crc32PageChecksum(page))}, ` +
        `innodb ${hex(innodbNewChecksum(page))}/${hex(innodbOldChecksum(page))}`,
    });
  }
  return faults;
}

/** Accepts any of crc32, innodb and none, as a non-strict innodb_checksum_algorithm does. */
function legacyChecksumOk(page: Uint8Array, field1: number, field2: number): boolean {
  if (field1 === NO_CHECKSUM_MAGIC && field2 === NO_CHECKSUM_MAGIC) return true;
  const crc = crc32PageChecksum(page);
  const crcBoth = field1 === crc && field2 === crc;
  if (field2 !== readU32(page, FIL_PAGE_LSN) && field2 !== NO_CHECKSUM_MAGIC) {
    if (!crcBoth && field2 !== innodbOldChecksum(page)) return false;
  }
  if (field1 === 0 || field1 === NO_CHECKSUM_MAGIC) return true;
  return crcBoth || field1 === innodbNewChecksum(page);
}

function positionFaults(page: Uint8Array, ctx: PageContext): PageFault[] {
  const header = readPageHeader(page);
  const faults: PageFault[] = [];
  if (ctx.pageNo !== null && header.pageNo !== ctx.pageNo) {
    faults.push({ kind: 'page-number-mismatch', detail: `header says page ${header.pageNo}, found at page ${ctx.pageNo}` });
  }
  if (ctx.spaceId !== null && header.spaceId !== ctx.spaceId) {
    faults.push({ kind: 'space-id-mismatch', detail: `header says space ${header.spaceId}, file is space ${ctx.spaceId}` });
  }
  return faults;
}
