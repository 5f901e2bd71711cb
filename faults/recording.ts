/**
 * The recording the helper keeps with --record (faults/helper/record.h): every write the disk
 * took, with its new bytes, and every flush, from the helper's start, in the order the disk gave
 * them their places. Little-endian: "PFR1", then per event u32 kind, u32 length, u64 a, u64 b,
 * u64 time in ns on the monotonic clock (process.hrtime's), a write's `length` bytes after it.
 * A cut or truncated event ends it. A file that ends without one ('open') is the recording of a
 * helper still running, one that exited with no cut, one killed, or one whose writes to the file
 * failed (helper.log then says "recording to FILE stopped"); its last event may then be cut short,
 * and is dropped: every event before it is whole. Anything after a closing event is refused.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { diskFailure } from './disk-error.js';

export const RECORDING_FILE = 'recording.pfr';

/** A write the disk took: its seq, device offset and length; its data is at `dataAt` in the file. */
export type RecordedWrite = { kind: 'write'; seq: number; offset: number; length: number; tUs: number; dataAt: number };

export type RecordedEvent =
  | RecordedWrite
  /** A completed flush: every seq below `boundary` is durable; `number` counts flushes since the start. */
  | { kind: 'flush'; boundary: number; number: number; tUs: number }
  /** A durable cache's write completed: durable from here (a volatile cache records none). */
  | { kind: 'complete'; seq: number; tUs: number }
  /** The cut: `next` is the seq the next write would have taken. Nothing follows. */
  | { kind: 'cut'; next: number; tUs: number }
  /** The file reached its bound: writes from seq `next` on, and every later flush, are not in it. */
  | { kind: 'truncated'; next: number; tUs: number };

/** `bytes`: the file's size as read (a dropped partial event included). */
export type Recording = { path: string; events: RecordedEvent[]; bytes: number; ended: 'cut' | 'truncated' | 'open' };

const MAGIC = 'PFR1';
const HEADER = 32;
const CHUNK = 4 << 20;

/** The events of the recording at path, read header by header: the data is skipped, not loaded. */
export function indexRecording(path: string): Recording {
  const fd = openSync(path, 'r');
  try {
    return indexOpen(fd, path);
  } finally {
    closeSync(fd);
  }
}

function indexOpen(fd: number, path: string): Recording {
  const bytes = fstatSync(fd).size;
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(bytes, 4))); // read before it is looked at
  let chunkAt = 0;
  let chunkLength = readSync(fd, chunk, 0, chunk.length, 0);
  /** The `n` bytes at `at` (n <= CHUNK), read from the chunk, or a fresh chunk from `at`. */
  const view = (at: number, n: number): Buffer => {
    if (at < chunkAt || at + n > chunkAt + chunkLength) {
      chunkAt = at;
      chunkLength = readSync(fd, chunk, 0, chunk.length, at);
    }
    return chunk.subarray(at - chunkAt, at - chunkAt + n);
  };
  if (bytes < 4 || view(0, 4).toString('latin1') !== MAGIC) throw diskFailure(`${path} is not a power-fail disk recording (no ${MAGIC} header)`);
  const events: RecordedEvent[] = [];
  let ended: Recording['ended'] = 'open';
  for (let at = 4; at < bytes;) {
    const where = `${path}: event ${events.length} at byte ${at}`;
    if (ended !== 'open') throw diskFailure(`${where} follows the recording's ${ended} event`);
    if (at + HEADER > bytes) break; // a header cut short: the helper died mid-append
    const h = view(at, HEADER);
    const kind = h.readUInt32LE(0);
    const length = h.readUInt32LE(4);
    const a = Number(h.readBigUInt64LE(8));
    const b = Number(h.readBigUInt64LE(16));
    const tUs = Number(h.readBigUInt64LE(24) / 1000n); // microseconds are exact as a Number
    if (kind !== 1 && length !== 0) throw diskFailure(`${where} has kind ${kind} but ${length} bytes of data`);
    if (kind === 1) {
      if (at + HEADER + length > bytes) break; // its data cut short: as above
      events.push({ kind: 'write', seq: a, offset: b, length, tUs, dataAt: at + HEADER });
    } else if (kind === 2) events.push({ kind: 'flush', boundary: a, number: b, tUs });
    else if (kind === 4) events.push({ kind: 'cut', next: a, tUs });
    else if (kind === 6) events.push({ kind: 'complete', seq: a, tUs });
    else if (kind === 5) events.push({ kind: 'truncated', next: a, tUs });
    else throw diskFailure(`${where} has unknown kind ${kind}`);
    if (kind === 4 || kind === 5) ended = kind === 4 ? 'cut' : 'truncated';
    at += HEADER + (kind === 1 ? length : 0);
  }
  return { path, events, bytes, ended };
}

/**
 * The new bytes of a recorded write, from the recording open at fd. With `scratch` (bytes used at
 * once and not kept), read into it where they fit: a view of it, good until its next use.
 */
export function readRecordedData(fd: number, write: RecordedWrite, scratch?: Buffer): Buffer {
  const data = scratch && write.length <= scratch.length ? scratch.subarray(0, write.length) : Buffer.allocUnsafe(write.length); // filled whole, or it throws
  for (let got = 0; got < write.length;) {
    const n = readSync(fd, data, got, write.length - got, write.dataAt + got);
    if (n === 0) throw diskFailure(`the recording ends inside write ${write.seq}'s data (byte ${write.dataAt + got} of ${write.dataAt + write.length})`);
    got += n;
  }
  return data;
}

/** An event as encodeRecording takes it: a write carries its data instead of a place in a file. */
export type EncodableEvent =
  | Exclude<RecordedEvent, RecordedWrite>
  | { kind: 'write'; seq: number; offset: number; tUs: number; data: Buffer };

/** The format, for tests. */
export function encodeRecording(events: EncodableEvent[]): Buffer {
  const parts: Buffer[] = [Buffer.from(MAGIC, 'latin1')];
  for (const e of events) {
    const [kind, a, b] =
      e.kind === 'write' ? [1, e.seq, e.offset]
        : e.kind === 'flush' ? [2, e.boundary, e.number]
          : e.kind === 'cut' ? [4, e.next, 0]
            : e.kind === 'complete' ? [6, e.seq, 0] : [5, e.next, 0];
    const h = Buffer.alloc(HEADER);
    h.writeUInt32LE(kind, 0);
    h.writeUInt32LE(e.kind === 'write' ? e.data.length : 0, 4);
    h.writeBigUInt64LE(BigInt(a), 8);
    h.writeBigUInt64LE(BigInt(b), 16);
    h.writeBigUInt64LE(BigInt(e.tUs) * 1000n, 24);
    parts.push(h);
    if (e.kind === 'write') parts.push(e.data);
  }
  return Buffer.concat(parts);
}
