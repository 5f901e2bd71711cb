/**
 * MySQL 8.0.30+'s reduced doublewrite file, #ib_<pagesize>_0.bdblwr, written with
 * innodb_doublewrite=DETECT_ONLY: no page copies, only which page was written at which LSN. It is
 * a sequence of 8 KiB batch pages; each starts with a 20-byte header (batch id 4, CRC-32C of the
 * entries 4, entries' length 2, batch type 1, unused 9), then 16-byte entries: space id 4, page
 * number 4, page LSN 8. All-zero pages are unused. Checked on a 9.7.4 crash image, whose recovery
 * stopped on a page named here ("Cannot recover it from the doublewrite buffer because it was
 * written in detect_only-doublewrite mode").
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from './crc32c.js';
import { isAllZero, readLsn, readU32 } from './page-format.js';

export const REDUCED_BATCH_PAGE_SIZE = 8192;
const HEADER = 20;
const ENTRY = 16;

export interface ReducedEntry {
  space: number;
  page: number;
  lsn: number;
  source: { file: string; slot: number }; // the batch page it sits in
}

/** The entries of one .bdblwr file's bytes; a batch page whose checksum fails counts as corrupt. */
export function parseReducedFile(bytes: Uint8Array, file: string): { entries: ReducedEntry[]; corrupt: number } {
  const entries: ReducedEntry[] = [];
  let corrupt = 0;
  for (let slot = 0; (slot + 1) * REDUCED_BATCH_PAGE_SIZE <= bytes.length; slot++) {
    const page = bytes.subarray(slot * REDUCED_BATCH_PAGE_SIZE, (slot + 1) * REDUCED_BATCH_PAGE_SIZE);
    if (isAllZero(page)) continue;
    const length = (page[8]! << 8) | page[9]!;
    if (length === 0 || length % ENTRY !== 0 || HEADER + length > page.length || crc32c(page, HEADER, HEADER + length) !== readU32(page, 4)) {
      corrupt++;
      continue;
    }
    for (let at = HEADER; at < HEADER + length; at += ENTRY) {
      entries.push({ space: readU32(page, at), page: readU32(page, at + 4), lsn: readLsn(page, at + 8), source: { file, slot } });
    }
  }
  return { entries, corrupt };
}

/** Every reduced doublewrite entry in a datadir (none where DETECT_ONLY was never used). */
export async function readReducedDoublewrite(datadir: string): Promise<ReducedEntry[]> {
  const names = (await readdir(datadir)).filter((name) => /^#ib_\d+_\d+\.bdblwr$/.test(name)).sort();
  const entries: ReducedEntry[] = [];
  for (const name of names) entries.push(...parseReducedFile(await readFile(join(datadir, name)), `./${name}`).entries);
  return entries;
}
