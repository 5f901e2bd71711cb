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
import { BeyondWindow, CircularLog } from './circular-log.js';
import { crc32c } from './crc32c.js';
import type { FileOpKind, Page0HeaderWrite, RedoFileOp } from './redo-records.js';
import { MtrColumns, type RedoParseMemo } from './redo-parse-memo.js';
import { readCheckpointHeader, REDO_HEADER_BYTES } from './redo-checkpoint.js';
import { FIL_PAGE_DATA, FIL_PAGE_TYPE, FSP_SPACE_FLAGS, readLsn, readU32 } from './page-format.js';

export type { FileOpKind, Page0HeaderWrite, RedoFileOp } from './redo-records.js';

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

/**
 * Reads a mini-transaction's records from the log. Numbers and record lengths are read often (a
 * few per record, thousands of records per state), so each read returns its value and leaves its
 * size in a field (`size`, `bodyAt`) instead of allocating a pair.
 */
class RecordReader {
  size = 0; // the bytes the last variable-length number took
  bodyAt = 0; // where the last record measured starts its body

  constructor(readonly log: CircularLog) {}

  /** A variable-length number (1 to 5 bytes) at `lsn`, its size in `size`; -1: not one. */
  varint(lsn: number): number {
    const b = this.log.at(lsn);
    let extra: number;
    let base: number;
    if (b < 0x80) {
      this.size = 1;
      return b;
    }
    if (b < 0xc0) {
      extra = 1;
      base = 0x80 + (b & 0x3f) * 0x100;
    } else if (b < 0xe0) {
      extra = 2;
      base = 0x4080 + (b & 0x1f) * 0x10000;
    } else if (b < 0xf0) {
      extra = 3;
      base = 0x204080 + (b & 0x0f) * 0x1000000;
    } else if (b < 0xf8) {
      extra = 4;
      base = 0x10204080 + (b & 0x07) * 0x100000000;
    } else return -1;
    let v = 0;
    for (let i = 1; i <= extra; i++) v = v * 256 + this.log.at(lsn + i);
    this.size = extra + 1;
    return base + v;
  }

  /** A variable-length number at `at` that ends by `end`, the end of its record; -1: it does not. */
  varintWithin(at: number, end: number): number {
    if (at >= end) return -1;
    const v = this.varint(at);
    return v >= 0 && at + this.size <= end ? v : -1;
  }

  /** The length of the record's body after its first byte, its start in `bodyAt`; -1: corrupt. */
  recordLength(lsn: number): number {
    const log = this.log;
    const short = log.at(lsn) & 0x0f;
    if (short) {
      this.bodyAt = lsn + 1;
      return short;
    }
    const b = log.at(lsn + 1);
    if (b < 0x80) {
      this.bodyAt = lsn + 2;
      return b + 14;
    }
    if (b < 0xc0) {
      this.bodyAt = lsn + 3;
      return (b & 0x3f) * 0x100 + log.at(lsn + 2) + 141;
    }
    if (b < 0xe0) {
      this.bodyAt = lsn + 4;
      return (b & 0x1f) * 0x10000 + log.at(lsn + 2) * 0x100 + log.at(lsn + 3) + 16524;
    }
    return -1;
  }
}

function fileOp(r: RecordReader, mtrLsn: number, type: number, body: number, end: number): RedoFileOp | null {
  const op = FILE_OPS[type];
  const space = r.varint(body);
  if (!op || space < 0) return null;
  const spaceSize = r.size;
  const page = r.varint(body + spaceSize);
  const nameAt = body + spaceSize + (page < 0 ? 0 : r.size);
  if (page < 0 || nameAt > end) return null; // the numbers run past the record: corrupt
  const text = Buffer.from(r.log.slice(nameAt, end - nameAt)).toString('latin1');
  const [name, newName] = text.split('\0');
  return { lsn: mtrLsn, op, space, name: name!, ...(op === 'rename' && newName !== undefined ? { newName } : {}) };
}

/**
 * The page the previous page record was on, and the offset on it (last_offset) a same_page record
 * starts from; `on` false: none (no page record yet, or the last was malformed), so a same_page
 * record is skipped. One per parse, moved record by record.
 */
interface PageAt {
  on: boolean;
  space: number;
  page: number;
  offset: number;
}

/**
 * A WRITE of `length` bytes (at `dataAt` in the log) to `start` on its page: when the page is page 0
 * of a tablespace that is not predefined, the size and flags it covers whole, read from its data.
 */
function headerWrite(log: CircularLog, lsn: number, at: PageAt, start: number, dataAt: number, length: number): Page0HeaderWrite | null {
  if (at.page !== 0 || PREDEFINED.has(at.space)) return null;
  const field = (where: number): number | null =>
    start <= where && start + length >= where + 4 ? readU32(log.slice(dataAt + where - start, 4), 0) : null;
  const size = field(FSP_SIZE_AT);
  const flags = field(FSP_SPACE_FLAGS);
  return size === null && flags === null ? null : { lsn, space: at.space, size, flags };
}

/**
 * A page record (first byte `b`, body from `body` to `end`) of the mini-transaction at `lsn`: moves
 * `at` to the page it is on and past the bytes it changes (or off any page, when malformed), and
 * pushes the page-0 header write it makes. Without same_page, the tablespace id and page number
 * start it, at offset 0; with it, it continues where the previous page record left off. A WRITE,
 * MEMSET or MEMMOVE starts with an offset added to last_offset: a WRITE's data is the rest of the
 * record; a MEMSET's and MEMMOVE's length follows the offset (then the fill bytes or the source).
 */
function pageRecord(r: RecordReader, lsn: number, b: number, body: number, end: number, at: PageAt, headers: Page0HeaderWrite[]): void {
  let from = body;
  if (!(b & SAME_PAGE)) {
    const space = r.varintWithin(body, end);
    const spaceSize = r.size;
    const page = space < 0 ? -1 : r.varintWithin(body + spaceSize, end);
    if (page < 0) {
      at.on = false;
      return;
    }
    at.on = true;
    at.space = space;
    at.page = page;
    at.offset = 0;
    from = body + spaceSize + r.size;
  } else if (!at.on) return;
  const type = b & 0x70;
  if (type === FREE_PAGE) at.offset = 1;
  else if (type === INIT_PAGE || type === EXTENDED) at.offset = FIL_PAGE_TYPE;
  else if (type === WRITE || type === MEMSET || type === MEMMOVE) {
    const offset = r.varintWithin(from, end);
    if (offset < 0) {
      at.on = false;
      return;
    }
    const start = at.offset + offset;
    const rest = from + r.size;
    if (type === WRITE) {
      const header = headerWrite(r.log, lsn, at, start, rest, end - rest);
      if (header) headers.push(header);
      at.offset = start + end - rest;
      return;
    }
    const length = r.varintWithin(rest, end);
    if (length < 0) at.on = false;
    else at.offset = start + length;
  }
}

/**
 * The records of the mini-transaction at `lsn`, their creates, renames, deletes and page-0 header
 * writes pushed to `ops` and `headers`; where its end byte is, or -1: corrupt (what it pushed is
 * the caller's to take back).
 */
function parseRecords(r: RecordReader, lsn: number, ops: RedoFileOp[], headers: Page0HeaderWrite[]): number {
  const log = r.log;
  let at = lsn;
  let leading = true; // file records come first, with same_page set
  const page: PageAt = { on: false, space: 0, page: 0, offset: 0 };
  for (;;) {
    const b = log.at(at);
    if (b <= 1) return at;
    const length = r.recordLength(at);
    const body = r.bodyAt;
    if (length < 0 || body + length - lsn > log.capacity) return -1;
    const end = body + length;
    if (leading && b & SAME_PAGE) {
      const type = b & 0xf0;
      if (type !== FILE_CHECKPOINT) {
        const op = fileOp(r, lsn, type, body, end);
        if (!op) return -1;
        if (op.op !== 'modify') ops.push(op);
      }
    } else {
      leading = false;
      pageRecord(r, lsn, b, body, end, page, headers);
    }
    at = end;
  }
}

/**
 * Parses the mini-transaction at `lsn` onto `mtrs`: true, or false where the log ends (no record,
 * corrupt records, a sequence bit other than `expectedBit` of its end, or a bad CRC).
 */
function parseMtr(r: RecordReader, lsn: number, expectedBit: (endLsn: number) => number | null, mtrs: MtrColumns): boolean {
  const log = r.log;
  const [opsBefore, headersBefore] = [mtrs.ops.length, mtrs.headers.length];
  const at = parseRecords(r, lsn, mtrs.ops, mtrs.headers);
  const bit = at > lsn ? log.at(at) : -1; // at === lsn: no record, not a mini-transaction
  const expected = bit < 0 ? null : expectedBit(at);
  if (bit < 0 || (expected !== null && bit !== expected) || crc32c(log.slice(lsn, at - lsn)) !== readU32(log.slice(at + 1, 4), 0)) {
    mtrs.ops.length = opsBefore;
    mtrs.headers.length = headersBefore;
    return false;
  }
  mtrs.push(lsn, at + 5, bit);
  return true;
}

/**
 * The file operations and page-0 header writes from the checkpoint `from` to where the log ends,
 * parsed mini-transaction by mini-transaction, or taken in runs from the memo's kept parses where
 * the log holds the same bytes (./redo-parse-memo.ts).
 */
function parseFrom(log: CircularLog, from: number, memo?: RedoParseMemo): RedoFileOps {
  const r = new RecordReader(log);
  const mtrs = new MtrColumns();
  const limit = from + log.capacity; // one lap at most
  // the first mini-transaction's end byte sets the bit; it flips with each lap after
  let first: { bit: number; lap: number } | null = null;
  const expectedBit = (endLsn: number): number | null => (first ? first.bit ^ ((log.lap(endLsn) - first.lap) & 1) : null);
  let lsn = from;
  while (lsn < limit) {
    const run = memo?.runFrom(log, lsn, limit);
    if (run) {
      // a run's bits agree among themselves; its first must agree with this parse's
      const end = run.mtrs.next[run.lo]!;
      const expected = expectedBit(end - 5);
      if (expected === null || expected === run.mtrs.bit[run.lo]) {
        mtrs.pushRun(run.mtrs, run.lo, run.end);
        first ??= { bit: run.mtrs.bit[run.lo]!, lap: log.lap(end - 5) };
        lsn = run.mtrs.next[run.end - 1]!;
        continue;
      }
    }
    if (!parseMtr(r, lsn, expectedBit, mtrs)) break;
    if (memo) memo.misses++;
    lsn = mtrs.next[mtrs.n - 1]!;
    first ??= { bit: mtrs.bit[0]!, lap: log.lap(lsn - 5) };
  }
  memo?.keep(log, from, lsn, mtrs);
  return { from, to: lsn, ops: [...mtrs.ops], page0Headers: [...mtrs.headers] }; // the kept parse keeps its own lists
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

/**
 * The first part of the log read from the checkpoint (or more, with a memo whose parses were longer);
 * it grows fourfold while the log goes on past it.
 */
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
    // a log about as long as the longest parsed before is read at once, not grown into
    const likely = memo ? memo.longestParse() * 1.25 + 65536 : 0;
    for (let window = Math.min(Math.max(firstWindow, Math.ceil(likely)), capacity); ; window = Math.min(window * 4, capacity)) {
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
