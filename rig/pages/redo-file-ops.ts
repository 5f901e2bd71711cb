/**
 * What a MariaDB 10.8+ redo log (ib_logfile0, format "Phys") holds from its checkpoint to the end
 * of the log that the rig's judgement needs: the file operations, and the writes to page 0 of a
 * tablespace that cover its size or flags. It is parsed the way recovery parses it: mini-transaction
 * by mini-transaction, each a run of records ended by a byte 0x00 or 0x01 (the sequence bit, which
 * flips each time the log wraps around its file) and a CRC-32C of the records. The log ends at the
 * first mini-transaction whose CRC or sequence bit does not match.
 *
 * A record's first byte holds the same_page flag (bit 7), the type (bits 6..4) and a length (bits
 * 3..0; 0: one to three length bytes follow). The leading records of a mini-transaction that carry
 * same_page are file operations: FILE_CREATE, FILE_DELETE, FILE_RENAME or FILE_MODIFY (0x80, 0x90,
 * 0xa0, 0xb0), followed by the tablespace id and page number (variable-length numbers) and the
 * file name (a rename: old name, NUL, new name); FILE_CHECKPOINT (0xf0) carries an LSN. MariaDB's
 * recovery needs a FILE_* record for every tablespace that has page records after the checkpoint.
 *
 * The records after those are page records. One without same_page starts with the tablespace id
 * and page number; one with same_page continues on the previous record's page. Each moves an offset
 * on its page (last_offset, 0 at a record that names its page): FREE_PAGE (type 0x00) sets it to 1,
 * INIT_PAGE (0x10) and EXTENDED (0x20) to FIL_PAGE_TYPE; WRITE (0x30), MEMSET (0x40) and MEMMOVE
 * (0x50) add the offset they start with, then the bytes they change: a WRITE's data, which is the
 * rest of the record, or the length that follows a MEMSET's or MEMMOVE's offset; RESERVED (0x60) and
 * OPTION (0x70) leave it. A WRITE to page 0 that covers the space header's size (FSP_SIZE) or flags
 * (FSP_SPACE_FLAGS) makes MariaDB's recovery read that tablespace's page 0, from its doublewrite copy
 * when the page is torn (fil_space_set_recv_size_and_flags). A malformed page record (a number that
 * runs past it) is skipped, with the same_page records that follow it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from './crc32c.js';
import { readCheckpointHeader, REDO_HEADER_BYTES } from './redo-checkpoint.js';
import { FIL_PAGE_DATA, FIL_PAGE_TYPE, FSP_SPACE_FLAGS, readLsn, readU32 } from './page-format.js';

export type FileOpKind = 'create' | 'delete' | 'rename' | 'modify';

export interface RedoFileOp {
  lsn: number; // the LSN of the mini-transaction that holds it
  op: FileOpKind;
  space: number;
  name: string;
  newName?: string; // a rename's new name
}

/** A WRITE record to page 0 of a tablespace that covers the space header's size or flags. */
export interface Page0HeaderWrite {
  lsn: number; // the LSN of the mini-transaction that holds it
  space: number;
  size: number | null; // the FSP_SIZE it writes (pages); null: it does not cover FSP_SIZE
  flags: number | null; // the FSP_SPACE_FLAGS it writes; null: it does not cover them
}

export interface RedoFileOps {
  from: number; // the checkpoint LSN
  to: number; // the end of the log, as parsed
  /** Creates, renames and deletes, in log order (FILE_MODIFY, one per tablespace touched, is left out). */
  ops: RedoFileOp[];
  /**
   * The WRITE records to page 0 of a tablespace other than the predefined ones (the system and the
   * temporary tablespace) that cover its size or flags, in log order: for each, MariaDB's recovery
   * reads the tablespace's page 0, from its doublewrite copy when the page is torn. Always set by
   * the parse; absent in records written before the rig parsed page records.
   */
  page0Headers?: Page0HeaderWrite[];
}

const FILE_OPS: Record<number, FileOpKind> = { 0x80: 'create', 0x90: 'delete', 0xa0: 'rename', 0xb0: 'modify' };
const FILE_CHECKPOINT = 0xf0;
const SAME_PAGE = 0x80;
/** Page record types, bits 6..4 of the first byte (RESERVED 0x60 and OPTION 0x70 leave the offset). */
const FREE_PAGE = 0x00;
const INIT_PAGE = 0x10;
const EXTENDED = 0x20;
const WRITE = 0x30;
const MEMSET = 0x40;
const MEMMOVE = 0x50;
/** Where the space header (FSP_HEADER_OFFSET) keeps the tablespace's size in pages (FSP_SIZE), 4 bytes. */
const FSP_SIZE_AT = FIL_PAGE_DATA + 8;
/**
 * The predefined tablespaces, which the page-0 rule leaves out: the system tablespace (0) and the
 * temporary one (0xfffffffe). Undo tablespaces (ids from 1, at most 127, when innodb_undo_tablespaces
 * is set) are predefined too, but the log does not tell them apart: they count like any other.
 */
const PREDEFINED = new Set([0, 0xfffffffe]);
/** The header's first LSN: the LSN of the byte at REDO_HEADER_BYTES. */
const FIRST_LSN_AT = 8;

/** A read past the part of the log that was read from the file: read more and parse again. */
class BeyondWindow extends Error {}

/**
 * The log's circular body, or the part of it read so far: `body` holds the bytes from `startLsn`
 * on, in LSN order. Holding the whole body, it wraps as the file does; holding part, a read past
 * it throws BeyondWindow.
 */
class CircularLog {
  constructor(
    readonly capacity: number,
    readonly firstLsn: number,
    private readonly startLsn: number,
    private readonly body: Uint8Array,
  ) {}

  /** How many times the log has wrapped at `lsn`: the sequence bit flips with each. */
  lap(lsn: number): number {
    return Math.floor((lsn - this.firstLsn) / this.capacity);
  }

  /** How many bytes from `lsn` on the log holds in order (the whole body, when it wraps). */
  available(lsn: number): number {
    const i = lsn - this.startLsn;
    if (this.body.length === this.capacity) return this.capacity;
    return i < 0 ? 0 : Math.max(0, this.body.length - i);
  }

  at(lsn: number): number {
    const i = lsn - this.startLsn;
    if (this.body.length === this.capacity) return this.body[((i % this.capacity) + this.capacity) % this.capacity]!;
    if (i < 0 || i >= this.body.length) throw new BeyondWindow();
    return this.body[i]!;
  }

  slice(lsn: number, length: number): Uint8Array {
    const i = lsn - this.startLsn;
    if (this.body.length < this.capacity) {
      if (i < 0 || i + length > this.body.length) throw new BeyondWindow();
      return this.body.subarray(i, i + length);
    }
    const start = ((i % this.capacity) + this.capacity) % this.capacity;
    if (start + length <= this.capacity) return this.body.subarray(start, start + length);
    const out = new Uint8Array(length);
    out.set(this.body.subarray(start));
    out.set(this.body.subarray(0, length - (this.capacity - start)), this.capacity - start);
    return out;
  }
}

/** A variable-length number (1 to 5 bytes) at `lsn`: its value and its length. */
function readVarint(log: CircularLog, lsn: number): [number, number] | null {
  const b = log.at(lsn);
  const more = (n: number): number => {
    let v = 0;
    for (let i = 1; i <= n; i++) v = v * 256 + log.at(lsn + i);
    return v;
  };
  if (b < 0x80) return [b, 1];
  if (b < 0xc0) return [0x80 + (b & 0x3f) * 0x100 + more(1), 2];
  if (b < 0xe0) return [0x4080 + (b & 0x1f) * 0x10000 + more(2), 3];
  if (b < 0xf0) return [0x204080 + (b & 0x0f) * 0x1000000 + more(3), 4];
  if (b < 0xf8) return [0x10204080 + (b & 0x07) * 0x100000000 + more(4), 5];
  return null;
}

/** The length of the record's body after its first byte, and where the body starts; null: corrupt. */
function recordLength(log: CircularLog, lsn: number): { body: number; length: number } | null {
  const short = log.at(lsn) & 0x0f;
  if (short) return { body: lsn + 1, length: short };
  const b = log.at(lsn + 1);
  if (b < 0x80) return { body: lsn + 2, length: b + 14 };
  if (b < 0xc0) return { body: lsn + 3, length: (b & 0x3f) * 0x100 + log.at(lsn + 2) + 141 };
  if (b < 0xe0) return { body: lsn + 4, length: (b & 0x1f) * 0x10000 + log.at(lsn + 2) * 0x100 + log.at(lsn + 3) + 16524 };
  return null;
}

/** A variable-length number at `at` that ends by `end`, the end of its record; null: it does not. */
function varintWithin(log: CircularLog, at: number, end: number): [number, number] | null {
  if (at >= end) return null;
  const v = readVarint(log, at);
  return v && at + v[1] <= end ? v : null;
}

function fileOp(log: CircularLog, mtrLsn: number, type: number, body: number, end: number): RedoFileOp | null {
  const op = FILE_OPS[type];
  const space = readVarint(log, body);
  if (!op || !space) return null;
  const page = readVarint(log, body + space[1]);
  const nameAt = body + space[1] + (page?.[1] ?? 0);
  if (!page || nameAt > end) return null; // the numbers run past the record: corrupt
  const text = Buffer.from(log.slice(nameAt, end - nameAt)).toString('latin1');
  const [name, newName] = text.split('\0');
  return { lsn: mtrLsn, op, space: space[0], name: name!, ...(op === 'rename' && newName !== undefined ? { newName } : {}) };
}

/** The page the previous page record was on, and the offset on it (last_offset) a same_page record starts from. */
interface PageAt {
  space: number;
  page: number;
  offset: number;
}

/** A page record parsed: the page and offset the next same_page record continues from (null: none can), and its header write. */
interface PageStep {
  at: PageAt | null;
  header: Omit<Page0HeaderWrite, 'lsn'> | null;
}

const MALFORMED: PageStep = { at: null, header: null };

/**
 * The page a page record is on and where its own bytes start: with same_page, the previous record's
 * page, right after the length; without, the tablespace id and page number that start it, at offset 0.
 */
function recordPage(log: CircularLog, b: number, body: number, end: number, previous: PageAt | null): { page: PageAt; from: number } | null {
  if (b & SAME_PAGE) return previous && { page: previous, from: body };
  const space = varintWithin(log, body, end);
  const page = space && varintWithin(log, body + space[1], end);
  if (!space || !page) return null;
  return { page: { space: space[0], page: page[0], offset: 0 }, from: body + space[1] + page[1] };
}

/**
 * A WRITE of `length` bytes (at `dataAt` in the log) to `start` on its page: when the page is page 0
 * of a tablespace that is not predefined, the size and flags it covers whole, read from its data.
 */
function headerWrite(log: CircularLog, page: PageAt, start: number, dataAt: number, length: number): PageStep['header'] {
  if (page.page !== 0 || PREDEFINED.has(page.space)) return null;
  const field = (at: number): number | null =>
    start <= at && start + length >= at + 4 ? readU32(log.slice(dataAt + at - start, 4), 0) : null;
  const size = field(FSP_SIZE_AT);
  const flags = field(FSP_SPACE_FLAGS);
  return size === null && flags === null ? null : { space: page.space, size, flags };
}

/**
 * A WRITE, MEMSET or MEMMOVE, whose bytes start with an offset added to last_offset. A WRITE's data
 * is the rest of the record; a MEMSET's and MEMMOVE's length follows the offset (then the fill bytes
 * or the source). last_offset moves past the bytes changed.
 */
function pageChange(log: CircularLog, type: number, page: PageAt, from: number, end: number): PageStep {
  const offset = varintWithin(log, from, end);
  if (!offset) return MALFORMED;
  const start = page.offset + offset[0];
  const rest = from + offset[1];
  if (type === WRITE) return { at: { ...page, offset: start + end - rest }, header: headerWrite(log, page, start, rest, end - rest) };
  const length = varintWithin(log, rest, end);
  return length ? { at: { ...page, offset: start + length[0] }, header: null } : MALFORMED;
}

/** A page record (first byte `b`, body from `body` to `end`), after `previous`, the page record before it or null. */
function pageRecord(log: CircularLog, b: number, body: number, end: number, previous: PageAt | null): PageStep {
  const where = recordPage(log, b, body, end, previous);
  if (!where) return MALFORMED;
  const { page, from } = where;
  const type = b & 0x70;
  if (type === FREE_PAGE) return { at: { ...page, offset: 1 }, header: null };
  if (type === INIT_PAGE || type === EXTENDED) return { at: { ...page, offset: FIL_PAGE_TYPE }, header: null };
  if (type === WRITE || type === MEMSET || type === MEMMOVE) return pageChange(log, type, page, from, end);
  return { at: page, header: null };
}

/** What a mini-transaction's records hold. */
interface MtrRecords {
  ops: RedoFileOp[];
  headers: Page0HeaderWrite[];
}

/** The records of the mini-transaction at `lsn`: what they hold and where its end byte is; null: corrupt. */
function parseRecords(log: CircularLog, lsn: number): (MtrRecords & { end: number }) | null {
  const found: MtrRecords = { ops: [], headers: [] };
  let at = lsn;
  let leading = true; // file records come first, with same_page set
  let page: PageAt | null = null; // where the previous page record left off
  for (;;) {
    const b = log.at(at);
    if (b <= 1) return { ...found, end: at };
    const len = recordLength(log, at);
    if (!len || len.body + len.length - lsn > log.capacity) return null;
    const end = len.body + len.length;
    if (leading && b & SAME_PAGE) {
      const type = b & 0xf0;
      if (type !== FILE_CHECKPOINT) {
        const op = fileOp(log, lsn, type, len.body, end);
        if (!op) return null;
        found.ops.push(op);
      }
    } else {
      leading = false;
      const step = pageRecord(log, b, len.body, end, page);
      page = step.at;
      if (step.header) found.headers.push({ lsn, ...step.header });
    }
    at = end;
  }
}

/** A mini-transaction a parse accepted: where it starts, where the next starts, its sequence bit and records. */
interface ParsedMtr {
  lsn: number;
  next: number;
  bit: number;
  records: MtrRecords;
}

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

/**
 * Mini-transactions parsed before. A mini-transaction's records, its sequence bit and its checksum
 * come from its own bytes alone, so one at the same LSN with the same bytes parses the same: the
 * crash images explore judges from one recording share most of their log, and each parse reads
 * only what is new. Two ways: the last parse's bytes, compared in bulk, give every mini-transaction
 * up to the first byte that differs (consecutive states share all but the log's tail); past it,
 * each mini-transaction is looked up by LSN with its bytes. Memory: the bytes of each one kept,
 * and the last parse's.
 */
export class RedoParseMemo {
  private readonly seen = new Map<number, { bytes: Buffer; records: MtrRecords; end: number }>();
  private last: { firstLsn: number; capacity: number; from: number; bytes: Buffer; mtrs: ParsedMtr[] } | null = null;
  hits = 0;
  misses = 0;
  /** Mini-transactions taken from the last parse, in bulk. */
  reused = 0;

  /**
   * The mini-transactions the last parse accepted from `from` on whose bytes the log holds
   * unchanged, in order. Their sequence bits agree among themselves, as the last parse found.
   */
  unchangedFrom(log: CircularLog, from: number): ParsedMtr[] {
    const last = this.last;
    if (!last || last.firstLsn !== log.firstLsn || last.capacity !== log.capacity) return [];
    const mtrs = last.mtrs;
    let lo = 0;
    let hi = mtrs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (mtrs[mid]!.lsn < from) lo = mid + 1;
      else hi = mid;
    }
    if (lo === mtrs.length || mtrs[lo]!.lsn !== from) return [];
    const offset = from - last.from;
    const length = Math.min(last.bytes.length - offset, log.available(from));
    const same = from + sharedPrefix(log.slice(from, length), last.bytes.subarray(offset, offset + length));
    let end = lo;
    while (end < mtrs.length && mtrs[end]!.next <= same) end++;
    this.reused += end - lo;
    return mtrs.slice(lo, end);
  }

  /** A whole parse from `from`: what the next one compares with. */
  rememberParse(log: CircularLog, from: number, to: number, mtrs: ParsedMtr[]): void {
    if (to - from > log.capacity) {
      this.last = null;
      return;
    }
    this.last = { firstLsn: log.firstLsn, capacity: log.capacity, from, bytes: Buffer.from(log.slice(from, to - from)), mtrs };
  }

  /** The mini-transaction at `lsn` if the log holds the same bytes there as when it was parsed. */
  known(log: CircularLog, lsn: number): { records: MtrRecords; end: number; bit: number } | null {
    const mtr = this.seen.get(lsn);
    if (!mtr) return null;
    let bytes: Uint8Array;
    try {
      bytes = log.slice(lsn, mtr.bytes.length);
    } catch {
      return null; // past the window: parsed afresh, which asks for a wider one
    }
    if (!mtr.bytes.equals(bytes)) return null;
    this.hits++;
    return { records: mtr.records, end: mtr.end, bit: mtr.bytes[mtr.end - lsn]! };
  }

  remember(log: CircularLog, lsn: number, records: MtrRecords, end: number): void {
    this.misses++;
    this.seen.set(lsn, { bytes: Buffer.from(log.slice(lsn, end + 5 - lsn)), records, end });
  }
}

/** One mini-transaction at `lsn`: what its records hold and where the next starts; null: the log ends here. */
function parseMtr(log: CircularLog, lsn: number, sequenceBit: (endLsn: number) => number | null, memo?: RedoParseMemo): (MtrRecords & { next: number; bit: number }) | null {
  const known = memo?.known(log, lsn);
  if (known) {
    const expected = sequenceBit(known.end);
    if (expected !== null && known.bit !== expected) return null;
    return { ops: known.records.ops, headers: known.records.headers, next: known.end + 5, bit: known.bit };
  }
  const records = parseRecords(log, lsn);
  if (!records || records.end === lsn) return null; // no record: not a mini-transaction
  const at = records.end;
  const bit = log.at(at);
  const expected = sequenceBit(at);
  if (expected !== null && bit !== expected) return null;
  const stored = readU32(log.slice(at + 1, 4), 0);
  if (crc32c(log.slice(lsn, at - lsn)) !== stored) return null;
  memo?.remember(log, lsn, { ops: records.ops, headers: records.headers }, at);
  return { ops: records.ops, headers: records.headers, next: at + 5, bit };
}

/** The file operations and page-0 header writes from the checkpoint `from` to where the log ends. */
function parseFrom(log: CircularLog, from: number, memo?: RedoParseMemo): RedoFileOps {
  const ops: RedoFileOp[] = [];
  const page0Headers: Page0HeaderWrite[] = [];
  const parsed: ParsedMtr[] = [];
  let lsn = from;
  // the first mini-transaction's end byte sets the bit; it flips with each lap after
  let first: { bit: number; lap: number } | null = null;
  const sequenceBit = (endLsn: number): number | null => (first ? first.bit ^ ((log.lap(endLsn) - first.lap) & 1) : null);
  const take = (mtr: ParsedMtr) => {
    if (!first) first = { bit: mtr.bit, lap: log.lap(mtr.next - 5) };
    for (const op of mtr.records.ops) if (op.op !== 'modify') ops.push(op);
    for (const header of mtr.records.headers) page0Headers.push(header);
    parsed.push(mtr);
    lsn = mtr.next;
  };
  for (const mtr of memo?.unchangedFrom(log, from) ?? []) {
    if (mtr.lsn - from >= log.capacity) break;
    take(mtr);
  }
  while (lsn - from < log.capacity) {
    const mtr = parseMtr(log, lsn, sequenceBit, memo);
    if (!mtr) break;
    take({ lsn, next: mtr.next, bit: mtr.bit, records: { ops: mtr.ops, headers: mtr.headers } });
  }
  memo?.rememberParse(log, from, lsn, parsed);
  return { from, to: lsn, ops, page0Headers };
}

/** Parses a whole ib_logfile0 from its checkpoint; null when it is no 10.8+ log. */
export function parseRedoFileOps(bytes: Uint8Array): RedoFileOps | null {
  const header = readCheckpointHeader(bytes.subarray(0, REDO_HEADER_BYTES));
  if (!header.checkpoint || bytes.length <= REDO_HEADER_BYTES) return null;
  const firstLsn = readLsn(bytes, FIRST_LSN_AT);
  const log = new CircularLog(bytes.length - REDO_HEADER_BYTES, firstLsn, firstLsn, bytes.subarray(REDO_HEADER_BYTES));
  return parseFrom(log, header.checkpoint.lsn);
}

/** Reads `length` bytes at `position` into `into` from `offset`, however many reads it takes. */
async function readFully(file: FileHandle, into: Buffer, offset: number, length: number, position: number): Promise<void> {
  for (let done = 0; done < length; ) {
    const { bytesRead } = await file.read(into, offset + done, length - done, position + done);
    if (bytesRead === 0) throw new Error(`ib_logfile0 ended ${length - done} bytes short of its size`);
    done += bytesRead;
  }
}

/** The first part of the log read from the checkpoint; it grows fourfold while the log goes on past it. */
const FIRST_WINDOW = 4 << 20;

/**
 * The datadir's redo file operations and page-0 header writes since its checkpoint; null without a
 * MariaDB 10.8+ log. Reads the log from the checkpoint on, as far as it goes (a few MB after a cut
 * here), not the whole file.
 */
export async function readRedoFileOps(datadir: string, firstWindow = FIRST_WINDOW, memo?: RedoParseMemo): Promise<RedoFileOps | null> {
  const file = await open(join(datadir, 'ib_logfile0'), 'r').catch(() => null);
  if (!file) return null;
  try {
    const { size } = await file.stat();
    if (size <= REDO_HEADER_BYTES) return null;
    const head = Buffer.alloc(REDO_HEADER_BYTES);
    await readFully(file, head, 0, REDO_HEADER_BYTES, 0);
    const header = readCheckpointHeader(head);
    if (!header.checkpoint) return null;
    const capacity = size - REDO_HEADER_BYTES;
    const firstLsn = readLsn(head, FIRST_LSN_AT);
    const from = header.checkpoint.lsn;
    const startAt = (((from - firstLsn) % capacity) + capacity) % capacity;
    for (let window = Math.min(firstWindow, capacity); ; window = Math.min(window * 4, capacity)) {
      const body = Buffer.allocUnsafe(window); // read whole, or readFully throws
      const tail = Math.min(window, capacity - startAt); // up to the file's end, then from the body's start
      await readFully(file, body, 0, tail, REDO_HEADER_BYTES + startAt);
      if (window > tail) await readFully(file, body, tail, window - tail, REDO_HEADER_BYTES);
      try {
        return parseFrom(new CircularLog(capacity, firstLsn, from, body), from, memo);
      } catch (error) {
        if (!(error instanceof BeyondWindow) || window === capacity) throw error;
      }
    }
  } finally {
    await file.close();
  }
}
