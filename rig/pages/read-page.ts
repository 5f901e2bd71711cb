/** One page of a file, read whole, or null when the file is missing or shorter than that page. */
import { closeSync, openSync, readSync } from 'node:fs';

export function readPageSync(path: string, pageNo: number, pageSize: number): Buffer | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(pageSize);
    return readSync(fd, buf, 0, pageSize, pageNo * pageSize) === pageSize ? buf : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
