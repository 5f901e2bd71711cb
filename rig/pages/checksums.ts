/**
 * The three InnoDB page checksums (see MariaDB buf0checksum / buf0buf):
 *  - crc32: CRC32C(p[4,26)) ^ CRC32C(p[38,ps-8)), stored at 0 and (as the old checksum) at ps-8;
 *  - innodb: the legacy byte fold, new-style over the same ranges (at 0), old-style over p[0,26)
 *    (at ps-8);
 *  - full_crc32 (MariaDB 10.5+): CRC32C(p[0,ps-4)) stored at ps-4.
 */
import { crc32c } from './crc32c.js';
import { FIL_PAGE_DATA, FIL_PAGE_END_LSN_OLD_CHKSUM, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_OFFSET } from './page-format.js';

const HASH_MASK = 1463735687;
const HASH_MASK2 = 1653893711;

/** ut_fold_binary, kept to 32 bits: the fold only carries upwards, so the low word is exact. */
export function foldBytes(buf: Uint8Array, start: number, end: number): number {
  let fold = 0;
  for (let i = start; i < end; i++) {
    const n2 = buf[i]!;
    fold = ((((((fold ^ n2 ^ HASH_MASK2) << 8) >>> 0) + fold) >>> 0) ^ HASH_MASK) >>> 0;
    fold = (fold + n2) >>> 0;
  }
  return fold;
}

export function crc32PageChecksum(page: Uint8Array): number {
  const ps = page.length;
  return (crc32c(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN) ^
    crc32c(page, FIL_PAGE_DATA, ps - FIL_PAGE_END_LSN_OLD_CHKSUM)) >>> 0;
}

export function innodbNewChecksum(page: Uint8Array): number {
  const ps = page.length;
  return (foldBytes(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN) +
    foldBytes(page, FIL_PAGE_DATA, ps - FIL_PAGE_END_LSN_OLD_CHKSUM)) >>> 0;
}

export function innodbOldChecksum(page: Uint8Array): number {
  return foldBytes(page, 0, FIL_PAGE_FILE_FLUSH_LSN);
}

export function fullCrc32Checksum(page: Uint8Array): number {
  return crc32c(page, 0, page.length - 4);
}
