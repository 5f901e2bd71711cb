/**
 * The journal the helper dumps at the cut: every write since the last completed flush, in arrival
 * order. Little-endian: "PFJ1", u64 count, then per write u64 seq, u64 offset, u64 length,
 * `length` bytes it overwrote, `length` bytes it brought.
 */
import { existsSync, readFileSync } from 'node:fs';
import { diskFailure } from './disk-error.js';

export interface JournalEntry {
  seq: number;
  offset: number;
  length: number;
  old: Buffer;
  new: Buffer;
}

export function parseJournal(data: Buffer, source = 'journal'): JournalEntry[] {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'PFJ1') {
    throw diskFailure(`${source} is not a power-fail disk journal (no PFJ1 header)`);
  }
  const count = Number(data.readBigUInt64LE(4));
  const entries: JournalEntry[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + 24 > data.length) throw diskFailure(`${source} is truncated at write ${i} of ${count}`);
    const seq = Number(data.readBigUInt64LE(at));
    const offset = Number(data.readBigUInt64LE(at + 8));
    const length = Number(data.readBigUInt64LE(at + 16));
    at += 24;
    if (at + 2 * length > data.length) throw diskFailure(`${source} is truncated in write ${i} of ${count}`);
    entries.push({ seq, offset, length, old: data.subarray(at, at + length), new: data.subarray(at + length, at + 2 * length) });
    at += 2 * length;
  }
  if (at !== data.length) throw diskFailure(`${source} has ${data.length - at} bytes after its last write (${count} written)`);
  return entries;
}

export function loadJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) {
    throw diskFailure(`${path} does not exist: the disk was not cut, or its journal dump at the cut failed (see helper.log beside it)`);
  }
  return parseJournal(readFileSync(path), path);
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

/** The format, as the dm disk writes it from its log (the helper writes its own in C). */
export function encodeJournal(entries: JournalEntry[]): Buffer {
  const parts: Buffer[] = [Buffer.from('PFJ1', 'latin1'), u64(entries.length)];
  for (const e of entries) parts.push(u64(e.seq), u64(e.offset), u64(e.length), e.old, e.new);
  return Buffer.concat(parts);
}
