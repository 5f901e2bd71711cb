/**
 * The order log the helper dumps at the cut beside its journal (faults/helper/order.h): the latest
 * writes, flushes, retirements by the journal bound and the cut, in the order the disk saw them, each with
 * the wall-clock time (and, on a durable cache, each write's completion), so the device's order can be set beside a trace of the server's system
 * calls. Little-endian: "PFO1", u64 count, then per event u32 kind, u32 length, u64 a, u64 b,
 * u64 time in ns (read as whole microseconds, as strace -ttt prints them). Evidence only: a crash image never needs it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { diskFailure } from './disk-error.js';

export const ORDER_LOG_FILE = 'order.bin';

export type OrderEvent =
  /** A write the disk journaled (it was complete): its seq, device offset and length. */
  | { kind: 'write'; seq: number; offset: number; length: number; tUs: number }
  /** A completed flush: every seq below `boundary` is durable; `number` counts flushes since the disk started. */
  | { kind: 'flush'; boundary: number; number: number; tUs: number }
  /** The journal bound retired the oldest writes as durable, up to `seq`. */
  | { kind: 'retire'; seq: number; count: number; tUs: number }
  /** The cut: `next` is the seq the next write would have taken. */
  | { kind: 'cut'; next: number; tUs: number }
  /** A durable cache's write completed (its reply sent): durable from here. */
  | { kind: 'complete'; seq: number; tUs: number };

const EVENT_BYTES = 32;

export function parseOrderLog(data: Buffer, source = 'order log'): OrderEvent[] {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'PFO1') throw diskFailure(`${source} is not a power-fail disk order log (no PFO1 header)`);
  const count = Number(data.readBigUInt64LE(4));
  if (data.length !== 12 + count * EVENT_BYTES) throw diskFailure(`${source} holds ${data.length - 12} bytes of events, not ${count} x ${EVENT_BYTES}`);
  const events: OrderEvent[] = [];
  for (let i = 0, at = 12; i < count; i++, at += EVENT_BYTES) {
    const kind = data.readUInt32LE(at);
    const length = data.readUInt32LE(at + 4);
    const a = Number(data.readBigUInt64LE(at + 8));
    const b = Number(data.readBigUInt64LE(at + 16));
    const tUs = Number(data.readBigUInt64LE(at + 24) / 1000n); // microseconds are exact as a Number
    if (kind === 1) events.push({ kind: 'write', seq: a, offset: b, length, tUs });
    else if (kind === 2) events.push({ kind: 'flush', boundary: a, number: b, tUs });
    else if (kind === 3) events.push({ kind: 'retire', seq: a, count: b, tUs });
    else if (kind === 4) events.push({ kind: 'cut', next: a, tUs });
    else if (kind === 6) events.push({ kind: 'complete', seq: a, tUs });
    else throw diskFailure(`${source}: event ${i} has unknown kind ${kind}`);
  }
  return events;
}

/** The order log at path, or null when the disk kept none (an older helper, or its dump failed). */
export function readOrderLog(path: string): OrderEvent[] | null {
  return existsSync(path) ? parseOrderLog(readFileSync(path), path) : null;
}

/** The format, for tests. */
export function encodeOrderLog(events: OrderEvent[]): Buffer {
  const out = Buffer.alloc(12 + events.length * EVENT_BYTES);
  out.write('PFO1', 0, 'latin1');
  out.writeBigUInt64LE(BigInt(events.length), 4);
  events.forEach((e, i) => {
    const at = 12 + i * EVENT_BYTES;
    const [kind, length, a, b] =
      e.kind === 'write' ? [1, e.length, e.seq, e.offset]
        : e.kind === 'flush' ? [2, 0, e.boundary, e.number]
          : e.kind === 'retire' ? [3, 0, e.seq, e.count]
            : e.kind === 'complete' ? [6, 0, e.seq, 0] : [4, 0, e.next, 0];
    out.writeUInt32LE(kind, at);
    out.writeUInt32LE(length, at + 4);
    out.writeBigUInt64LE(BigInt(a), at + 8);
    out.writeBigUInt64LE(BigInt(b), at + 16);
    out.writeBigUInt64LE(BigInt(e.tUs) * 1000n, at + 24);
  });
  return out;
}
