/** Whole reads and writes at an offset of a file open at fd, as images and journals need them. */
import { readSync, writeSync } from 'node:fs';

/** `length` bytes at `offset` (zeros past the file's end, as a sparse image reads); fd null: zeros. */
export function readAt(fd: number | null, offset: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  if (fd === null) return out;
  for (let got = 0; got < length;) {
    const n = readSync(fd, out, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return out;
}

/** All of `data` at `offset`. */
export function writeAt(fd: number, data: Buffer, offset: number): void {
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done, offset + done);
}
