/** Reads the few pages of ibdata1 the verifier needs by themselves: page 0 and the TRX_SYS page. */
import { open } from 'node:fs/promises';
import { readDoublewriteArea, TRX_SYS_PAGE_NO, type DoublewriteArea } from './doublewrite-area.js';
import { readSpaceHeader, type SpaceFormat } from './fsp-flags.js';
import { DEFAULT_FORMAT } from './scan-tablespace.js';

export async function readPageAt(path: string, pageNo: number, pageSize: number): Promise<Buffer | null> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.alloc(pageSize);
    const { bytesRead } = await file.read(buf, 0, pageSize, pageNo * pageSize);
    return bytesRead === pageSize ? buf : null;
  } finally {
    await file.close();
  }
}

/** The format page 0 declares, or null when its flags are unreadable. */
export async function readSpaceFormat(path: string): Promise<{ spaceId: number; format: SpaceFormat } | null> {
  const head = await readPageAt(path, 0, 4096);
  const header = head ? readSpaceHeader(head) : null;
  return header?.format ? { spaceId: header.spaceId, format: header.format } : null;
}

export async function readSystemDoublewriteArea(ibdata1: string): Promise<DoublewriteArea | null> {
  const format = (await readSpaceFormat(ibdata1))?.format ?? DEFAULT_FORMAT;
  const trxSys = await readPageAt(ibdata1, TRX_SYS_PAGE_NO, format.pageSize);
  return trxSys ? readDoublewriteArea(trxSys) : null;
}
