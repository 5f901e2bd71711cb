/**
 * Whether a tablespace page is allocated, from the extent descriptors (XDES) the tablespace keeps
 * in page 0 and every page_size-th page after it. A torn page the space has freed holds no data:
 * the server reinitialises it when it hands it out again.
 * Layout (fsp0fsp.h): FSP header at 38 (112 bytes; FSP_FREE_LIMIT at +12), then XDES entries of
 * 24 + pages_per_extent/4 bytes: state (u32) at +20, then two bits per page, the first = free.
 */
import { extentPages } from './doublewrite-area.js';
import { readSpaceHeader } from './fsp-flags.js';
import { FIL_PAGE_DATA, readU32 } from './page-format.js';
import { readPageSync } from './read-page.js';
import { verifyPage } from './verify-page.js';

const XDES_ARR_OFFSET = FIL_PAGE_DATA + 112;
const FSP_FREE_LIMIT = FIL_PAGE_DATA + 12;
const XDES_STATE = 20;
const XDES_BITMAP = 24;
const XDES_FREE = 1;

/** Given the descriptor page that covers `page`, whether `page` is free. */
export function pageFreeIn(descriptorPage: Uint8Array, page: number, pageSize: number, isPageZero: boolean): boolean {
  if (isPageZero && page >= readU32(descriptorPage, FSP_FREE_LIMIT)) return true; // never initialised
  const perExtent = extentPages(pageSize);
  const entrySize = 24 + perExtent / 4;
  const entry = XDES_ARR_OFFSET + Math.floor((page % pageSize) / perExtent) * entrySize;
  const state = readU32(descriptorPage, entry + XDES_STATE);
  if (state === 0 || state === XDES_FREE) return true;
  const bit = (page % perExtent) * 2;
  return ((descriptorPage[entry + XDES_BITMAP + (bit >> 3)]! >> (bit & 7)) & 1) === 1;
}

/**
 * True when the file's extent descriptors mark `page` free; null when they cannot be trusted: the
 * descriptor page is unreadable, all zeros or fails the verifier, or page 0's flags do not name
 * this page size. A torn descriptor page never frees anything.
 */
export function isPageFree(path: string, page: number, pageSize: number): boolean | null {
  const descriptor = Math.floor(page / pageSize) * pageSize;
  const head = readPageSync(path, 0, pageSize);
  const format = head ? readSpaceHeader(head).format : null;
  if (!head || !format || format.pageSize !== pageSize || format.zipSize) return null;
  const buf = descriptor === 0 ? head : readPageSync(path, descriptor, pageSize);
  if (!buf) return null;
  const verdict = verifyPage(buf, { format, pageNo: descriptor, spaceId: null });
  if (!verdict.valid || verdict.zero) return null;
  return pageFreeIn(buf, page, pageSize, descriptor === 0);
}
