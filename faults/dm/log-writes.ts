/**
 * The log dm-log-writes keeps on its log device (the kernel's drivers/md/dm-log-writes.c): a super
 * sector (u64 magic, u64 version, u64 entry count, u32 sector size), then per entry one sector
 * holding u64 sector, u64 sector count, u64 flags, u64 data length (a mark's text after them), and
 * a write's data in the sectors after it. Sectors are the data device's logical block size.
 *
 * The target logs a write only once a flush covers it (or it is FUA); a write still unflushed sits
 * in the kernel's memory until the next flush, or until the target is removed, which logs the
 * unflushed writes and then the mark `dm-log-writes-end`. The dm disk logs the mark CUT_MARK at
 * its cut: what follows it is exactly what was unflushed then.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { diskFailure } from '../disk-error.js';

export const LOG_MAGIC = 0x6a736677736872n;
export const FLUSH_FLAG = 1;
export const FUA_FLAG = 2;
export const DISCARD_FLAG = 4;
export const MARK_FLAG = 8;
/** The mark the dm disk logs when it cuts, and the one the kernel logs when the target goes. */
export const CUT_MARK = 'powercut-rig-cut';
export const END_MARK = 'dm-log-writes-end';

export type LogEntry =
  /** A write (or a discard, which zeroes its range and has no data): device bytes. */
  | { kind: 'write'; index: number; offset: number; length: number; flags: number; dataAt: number | null }
  | { kind: 'flush'; index: number; flags: number }
  | { kind: 'mark'; index: number; text: string };

export interface WriteLog {
  path: string;
  sectorSize: number;
  /** What the super sector counts: the kernel writes it at FUA writes and marks, so it may lag. */
  superCount: number;
  entries: LogEntry[];
}

const HEADER = 32;
const CHUNK = 4 << 20;

/** Reads the file in chunks; `at` beyond what is read so far loads a new chunk from there. */
class ChunkReader {
  private buf = Buffer.alloc(CHUNK);
  private from = 0;
  private length = 0;
  constructor(private fd: number) {}
  view(at: number, n: number): Buffer {
    if (at < this.from || at + n > this.from + this.length) {
      this.from = at;
      this.length = readSync(this.fd, this.buf, 0, this.buf.length, at);
    }
    return this.buf.subarray(at - this.from, Math.min(at - this.from + n, this.length));
  }
}

/**
 * Every entry of the log at `path`, read header by header (data is skipped, not loaded). Reading
 * stops at the first empty header: the kernel writes entries in order, so that is the log's end.
 */
export function indexWriteLog(path: string): WriteLog {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const reader = new ChunkReader(fd);
    const superSector = reader.view(0, 28);
    if (superSector.length < 28 || superSector.readBigUInt64LE(0) !== LOG_MAGIC) {
      throw diskFailure(`${path} is not a dm-log-writes log (no magic in its first sector)`);
    }
    const superCount = Number(superSector.readBigUInt64LE(16));
    const sectorSize = superSector.readUInt32LE(24);
    if (![512, 1024, 2048, 4096].includes(sectorSize)) throw diskFailure(`${path}: sector size ${sectorSize} is not one a block device has`);
    const entries: LogEntry[] = [];
    for (let at = sectorSize; at + HEADER <= size;) {
      const h = reader.view(at, sectorSize);
      if (h.length < HEADER) break;
      const sector = Number(h.readBigUInt64LE(0));
      const sectors = Number(h.readBigUInt64LE(8));
      const flags = Number(h.readBigUInt64LE(16));
      const dataLength = Number(h.readBigUInt64LE(24));
      if (sector === 0 && sectors === 0 && flags === 0 && dataLength === 0) break;
      const index = entries.length;
      if (flags & MARK_FLAG) {
        if (dataLength > sectorSize - HEADER) throw diskFailure(`${path}: entry ${index} is a mark of ${dataLength} bytes, more than its sector holds`);
        entries.push({ kind: 'mark', index, text: h.toString('latin1', HEADER, HEADER + dataLength) });
      } else if (sectors === 0) {
        entries.push({ kind: 'flush', index, flags });
      } else {
        const discard = (flags & DISCARD_FLAG) !== 0;
        entries.push({ kind: 'write', index, offset: sector * sectorSize, length: sectors * sectorSize, flags, dataAt: discard ? null : at + sectorSize });
        // a write carrying a flush is logged as the flush and then the write
      }
      at += sectorSize + ((flags & DISCARD_FLAG) || (flags & MARK_FLAG) ? 0 : sectors * sectorSize);
    }
    return { path, sectorSize, superCount, entries };
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a logged write (zeros for a discard), from the log open at fd. */
export function readLoggedData(fd: number, entry: Extract<LogEntry, { kind: 'write' }>): Buffer {
  const data = Buffer.alloc(entry.length);
  if (entry.dataAt === null) return data;
  for (let got = 0; got < entry.length;) {
    const n = readSync(fd, data, got, entry.length - got, entry.dataAt + got);
    if (n === 0) throw diskFailure(`the log ends inside entry ${entry.index}'s data`);
    got += n;
  }
  return data;
}

/** An entry as encodeWriteLog takes it, for tests and for the disk-model check. */
export type EncodableEntry =
  | { kind: 'write'; offset: number; data: Buffer; flags?: number }
  | { kind: 'discard'; offset: number; length: number }
  | { kind: 'flush'; flags?: number }
  | { kind: 'mark'; text: string };

/** The log format as the kernel writes it. */
export function encodeWriteLog(entries: EncodableEntry[], sectorSize = 512): Buffer {
  const parts: Buffer[] = [];
  const superSector = Buffer.alloc(sectorSize);
  superSector.writeBigUInt64LE(LOG_MAGIC, 0);
  superSector.writeBigUInt64LE(1n, 8);
  superSector.writeBigUInt64LE(BigInt(entries.length), 16);
  superSector.writeUInt32LE(sectorSize, 24);
  parts.push(superSector);
  for (const e of entries) {
    const h = Buffer.alloc(sectorSize);
    if (e.kind === 'write') {
      h.writeBigUInt64LE(BigInt(e.offset / sectorSize), 0);
      h.writeBigUInt64LE(BigInt(e.data.length / sectorSize), 8);
      h.writeBigUInt64LE(BigInt(e.flags ?? 0), 16);
      parts.push(h, e.data);
    } else if (e.kind === 'discard') {
      h.writeBigUInt64LE(BigInt(e.offset / sectorSize), 0);
      h.writeBigUInt64LE(BigInt(e.length / sectorSize), 8);
      h.writeBigUInt64LE(BigInt(DISCARD_FLAG), 16);
      parts.push(h);
    } else if (e.kind === 'flush') {
      h.writeBigUInt64LE(BigInt(e.flags ?? FLUSH_FLAG), 16);
      parts.push(h);
    } else {
      h.writeBigUInt64LE(BigInt(MARK_FLAG), 16);
      h.writeBigUInt64LE(BigInt(e.text.length), 24);
      h.write(e.text, HEADER, 'latin1');
      parts.push(h);
    }
  }
  return Buffer.concat(parts);
}
