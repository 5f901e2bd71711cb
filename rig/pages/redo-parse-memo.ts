/**
 * What the redo parser (./redo-file-ops.ts) remembers between parses of crash images of one
 * recording, which share most of their log. A mini-transaction's records, its sequence bit and
 * its checksum come from its own bytes alone, so a run of mini-transactions a kept parse accepted
 * parses the same wherever the log holds the same bytes at the same LSNs: the parser takes such
 * runs whole (its columns and the operations they hold) instead of parsing them again, and parses
 * only what is new. A parse is kept as columns (one entry per mini-transaction, in typed arrays)
 * and a view of its bytes, so taking a run costs a byte comparison and a copy of columns, with no
 * object per mini-transaction. The last few parses are kept, so lanes that judge states of
 * different parts of the recording each find theirs.
 */
import type { CircularLog } from './circular-log.js';
import type { Page0HeaderWrite, RedoFileOp } from './redo-records.js';

/** A parse's mini-transactions in log order, as columns, and the operations they hold, flat. */
export class MtrColumns {
  n = 0;
  lsn = new Float64Array(256);
  next = new Float64Array(256); // where the next one starts (its end byte and CRC included)
  bit = new Uint8Array(256); // its sequence bit (the byte that ends its records)
  /** How many of `ops` and `headers` the mini-transactions before each hold: [i] before the i-th, [n] all. */
  opsBefore = new Uint32Array(257);
  headersBefore = new Uint32Array(257);
  readonly ops: RedoFileOp[] = []; // creates, renames and deletes (FILE_MODIFY left out)
  readonly headers: Page0HeaderWrite[] = [];

  /** One mini-transaction, after its operations were pushed to `ops` and `headers`. */
  push(lsn: number, next: number, bit: number): void {
    this.room(1);
    this.lsn[this.n] = lsn;
    this.next[this.n] = next;
    this.bit[this.n] = bit;
    this.n++;
    this.opsBefore[this.n] = this.ops.length;
    this.headersBefore[this.n] = this.headers.length;
  }

  /** Mini-transactions lo to end (exclusive) of another parse, with what they hold. */
  pushRun(from: MtrColumns, lo: number, end: number): void {
    const count = end - lo;
    this.room(count);
    this.lsn.set(from.lsn.subarray(lo, end), this.n);
    this.next.set(from.next.subarray(lo, end), this.n);
    this.bit.set(from.bit.subarray(lo, end), this.n);
    const ops = this.ops.length - from.opsBefore[lo]!;
    const headers = this.headers.length - from.headersBefore[lo]!;
    for (let i = from.opsBefore[lo]!; i < from.opsBefore[end]!; i++) this.ops.push(from.ops[i]!);
    for (let i = from.headersBefore[lo]!; i < from.headersBefore[end]!; i++) this.headers.push(from.headers[i]!);
    for (let k = 1; k <= count; k++) {
      this.opsBefore[this.n + k] = from.opsBefore[lo + k]! + ops;
      this.headersBefore[this.n + k] = from.headersBefore[lo + k]! + headers;
    }
    this.n += count;
  }

  /** The index of the first mini-transaction that starts at or after `lsn` (n: none). */
  firstFrom(lsn: number): number {
    return firstAbove(this.lsn, this.n, lsn - 1);
  }

  /** The index of the first mini-transaction that ends after `lsn` (its next one starts after it). */
  firstEndingAfter(lsn: number): number {
    return firstAbove(this.next, this.n, lsn);
  }

  private room(more: number): void {
    if (this.n + more <= this.lsn.length) return;
    const size = Math.max(this.lsn.length * 2, this.n + more);
    const grow = <T extends Float64Array | Uint8Array | Uint32Array>(a: T, length: number): T => {
      const b = new (a.constructor as new (n: number) => T)(length);
      b.set(a);
      return b;
    };
    this.lsn = grow(this.lsn, size);
    this.next = grow(this.next, size);
    this.bit = grow(this.bit, size);
    this.opsBefore = grow(this.opsBefore, size + 1);
    this.headersBefore = grow(this.headersBefore, size + 1);
  }
}

/** The index of the first of the first n values (ascending) above x; n when none is. */
function firstAbove(values: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A whole parse kept: its log's shape, its bytes from `from` to its end, its mini-transactions. */
interface KeptParse {
  firstLsn: number;
  capacity: number;
  from: number;
  bytes: Uint8Array;
  mtrs: MtrColumns;
}

/** A run of a kept parse's mini-transactions, lo to end (exclusive), that the log holds unchanged. */
export interface KeptRun {
  mtrs: MtrColumns;
  lo: number;
  end: number;
}

/** How many parses are kept: enough for a few lanes, each in its own part of the recording. */
const KEPT = 4;

/** How many leading bytes `a` and `b` have in common. */
function sharedPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  const block = 64 * 1024;
  let at = 0;
  while (at < n && Buffer.compare(a.subarray(at, Math.min(at + block, n)), b.subarray(at, Math.min(at + block, n))) === 0) at += block;
  if (at >= n) return n;
  while (a[at] === b[at]) at++;
  return at;
}

export class RedoParseMemo {
  private kept: KeptParse[] = []; // the most recently used first
  /** Mini-transactions parsed, and taken whole from kept parses. */
  misses = 0;
  reused = 0;

  /**
   * The longest run of mini-transactions a kept parse accepted from `lsn` on whose bytes the log
   * holds unchanged, each starting before `limit`; null: none. Within a run the sequence bits
   * agree among themselves, as the kept parse found.
   */
  runFrom(log: CircularLog, lsn: number, limit: number): KeptRun | null {
    let best: (KeptRun & { parse: KeptParse }) | null = null;
    for (const parse of this.kept) {
      const { mtrs } = parse;
      if (parse.firstLsn !== log.firstLsn || parse.capacity !== log.capacity || mtrs.n === 0) continue;
      if (lsn < mtrs.lsn[0]! || lsn > mtrs.lsn[mtrs.n - 1]!) continue;
      const lo = mtrs.firstFrom(lsn);
      if (mtrs.lsn[lo] !== lsn) continue;
      const offset = lsn - parse.from;
      const length = Math.min(parse.bytes.length - offset, log.available(lsn));
      if (length <= 0) continue;
      const same = lsn + sharedPrefix(log.slice(lsn, length), parse.bytes.subarray(offset, offset + length));
      const end = Math.min(mtrs.firstEndingAfter(same), mtrs.firstFrom(limit));
      if (end > lo && (!best || end - lo > best.end - best.lo)) best = { mtrs, lo, end, parse };
    }
    if (!best) return null;
    this.kept = [best.parse, ...this.kept.filter((p) => p !== best.parse)];
    this.reused += best.end - best.lo;
    return best;
  }

  /** A parse's length from its checkpoint, the longest kept: the next read's first window can hold as much. */
  longestParse(): number {
    return this.kept.reduce((most, p) => Math.max(most, p.bytes.length), 0);
  }

  /** A whole parse from `from` to `to`: what later ones take runs from. */
  keep(log: CircularLog, from: number, to: number, mtrs: MtrColumns): void {
    if (to - from > log.capacity || mtrs.n === 0) return;
    // a view keeps the whole read alive: copied where the read was much longer than the parse (a window grown fourfold)
    const view = log.slice(from, to - from);
    const bytes = view.buffer.byteLength > 2 * view.length ? new Uint8Array(view) : view;
    const parse = { firstLsn: log.firstLsn, capacity: log.capacity, from, bytes, mtrs };
    // a log parsed before, whole and unchanged (the same state's log again): kept once
    const same = (p: KeptParse) => p.firstLsn === parse.firstLsn && p.capacity === parse.capacity && p.from === from && Buffer.compare(p.bytes, parse.bytes) === 0;
    this.kept = [parse, ...this.kept.filter((p) => !same(p))].slice(0, KEPT);
  }
}
