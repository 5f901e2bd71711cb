/** Whole reads and writes at an offset of a file open at fd, as images and journals need them. */
import { readSync, writeSync } from 'node:fs';

/** `length` bytes at `offset` (zeros past the file's end, as a sparse image reads); fd null: zeros. */
export function readAt(fd: number | null, offset: number, length: number): Buffer {
  if (fd === null) return Buffer.alloc(length);
  const out = Buffer.allocUnsafe(length);
  readInto(fd, out, offset);
  return out;
}

/** Fills `into` with the bytes at `offset` (zeros past the file's end); a caller's buffer, read again and again. */
export function readInto(fd: number, into: Buffer, offset: number): void {
  let got = 0;
  while (got < into.length) {
    const n = readSync(fd, into, got, into.length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  into.fill(0, got);
}

/** All of `data` at `offset`. */
export function writeAt(fd: number, data: Buffer, offset: number): void {
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done, offset + done);
}
