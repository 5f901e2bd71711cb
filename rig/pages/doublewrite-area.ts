/**
 * Where the doublewrite buffer sits inside the system tablespace (MariaDB, and MySQL before
 * 8.0.20): the TRX_SYS page (page 5) holds, at ps-200, a 10-byte segment header, then the magic
 * 536853855 and the first page numbers of two blocks of one extent each (64 pages at 16 KiB),
 * then a repeat of those three fields in case the page was torn while being written.
 */
import { readU32 } from './page-format.js';

export const TRX_SYS_PAGE_NO = 5;
const DOUBLEWRITE_MAGIC = 536853855;

export interface DoublewriteArea {
  /** First page of each block, in the system tablespace's page numbers. */
  blocks: [number, number];
  /** Pages per block: one extent. */
  blockPages: number;
}

/** Pages in one extent (fsp0types.h FSP_EXTENT_SIZE): 1 MiB up to 16 KiB pages, then 64 pages. */
export function extentPages(pageSize: number): number {
  return pageSize <= 16384 ? 1048576 / pageSize : 64;
}

export function readDoublewriteArea(trxSysPage: Uint8Array): DoublewriteArea | null {
  const base = trxSysPage.length - 200 + 10;
  for (const at of [base, base + 12]) {
    if (readU32(trxSysPage, at) !== DOUBLEWRITE_MAGIC) continue;
    return {
      blocks: [readU32(trxSysPage, at + 4), readU32(trxSysPage, at + 8)],
      blockPages: extentPages(trxSysPage.length),
    };
  }
  return null;
}

export function inDoublewriteArea(area: DoublewriteArea | null, pageNo: number): boolean {
  if (!area) return false;
  return area.blocks.some((first) => pageNo >= first && pageNo < first + area.blockPages);
}
