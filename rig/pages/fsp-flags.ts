/**
 * FSP_SPACE_FLAGS on page 0 say how a tablespace's pages are laid out (MariaDB fsp0types.h):
 *  - full_crc32 format: bit 4 is the marker, bits 0-3 the page size as 512 << ssize;
 *  - otherwise (MySQL, MariaDB before 10.5 or with innodb_checksum_algorithm=crc32): bits 6-9
 *    hold the page size as 512 << ssize, with 0 meaning 16 KiB; bits 1-4 a ROW_FORMAT=COMPRESSED
 *    size.
 */
import { FSP_SPACE_FLAGS, FSP_SPACE_ID, isAllZero, MAX_PAGE_SIZE, MIN_PAGE_SIZE, readU32 } from './page-format.js';

export interface SpaceFormat {
  /** MariaDB full_crc32 layout (CRC-32C of the whole page at its end). */
  fullCrc32: boolean;
  pageSize: number;
  /** ROW_FORMAT=COMPRESSED page size, 0 when pages are not compressed. */
  zipSize: number;
}

const FCRC32_MARKER = 1 << 4;

/** Decodes FSP flags; null when they are not a valid combination (a damaged page 0, say). */
export function decodeFspFlags(flags: number): SpaceFormat | null {
  if (flags & FCRC32_MARKER && flags >>> 8 === 0) {
    const ssize = flags & 0xf;
    return sizeFromSsize(ssize, (pageSize) => ({ fullCrc32: true, pageSize, zipSize: 0 }));
  }
  if (flags >>> 18 !== 0) return null;
  const ssize = (flags >>> 6) & 0xf;
  const zssize = (flags >>> 1) & 0xf;
  return sizeFromSsize(ssize === 0 ? 5 : ssize, (pageSize) => ({
    fullCrc32: false,
    pageSize,
    zipSize: zssize === 0 ? 0 : 512 << zssize,
  }));
}

function sizeFromSsize(ssize: number, make: (pageSize: number) => SpaceFormat): SpaceFormat | null {
  const pageSize = 512 << ssize;
  return ssize > 0 && pageSize >= MIN_PAGE_SIZE && pageSize <= MAX_PAGE_SIZE ? make(pageSize) : null;
}

/**
 * Space id and format from a tablespace's first page (only its first 4 KiB are needed). A page 0
 * that holds only zeros (`blank`) names neither: the server has not written it yet (MariaDB
 * writes a new tablespace's page 0 when its buffer pool flushes it, not when it creates the file,
 * so a new file's later pages can reach the disk first), and its flags word of 0, which would
 * decode as a legacy 16 KiB format, was never written by anyone.
 */
export function readSpaceHeader(page0: Uint8Array): { spaceId: number; flags: number; format: SpaceFormat | null; blank: boolean } {
  const flags = readU32(page0, FSP_SPACE_FLAGS);
  const blank = isAllZero(page0);
  return { spaceId: readU32(page0, FSP_SPACE_ID), flags, format: blank ? null : decodeFspFlags(flags), blank };
}
