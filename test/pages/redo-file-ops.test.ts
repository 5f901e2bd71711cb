/**
 * The redo log's file operations and page-0 header writes (rig/pages/redo-file-ops.ts):
 * - on a real MariaDB 10.11.19 log (test/fixtures/redo), the parse ends where the server's own
 *   recovery said the log ends, and finds the create and rename the server then failed on, and the
 *   writes to page 0 that cover a tablespace's size or flags;
 * - on a log written by hand, page records of every type move the offset on their page as the
 *   format says, and exactly the WRITEs to page 0 of a tablespace other than the system and the
 *   temporary one that cover FSP_SIZE or FSP_SPACE_FLAGS come back, with the values they write;
 * - on seeded synthetic logs written by the format's rules, every file operation and page-0 header
 *   write comes back in order, across the wrap of the circular file, with records of every length
 *   encoding, and the log ends at a bad CRC or at a mini-transaction of the previous lap.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createRng, type Rng } from '../../faults/prng.js';
import { crc32c } from '../../rig/pages/crc32c.js';
import { parseRedoFileOps, readRedoFileOps, type Page0HeaderWrite, type RedoFileOp } from '../../rig/pages/redo-file-ops.js';
import { RedoParseMemo } from '../../rig/pages/redo-parse-memo.js';
import { REDO_HEADER_BYTES } from '../../rig/pages/redo-checkpoint.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const FIXTURES = fixtureFile();

t.test('a real log: the parse ends where the server said, with the create and rename it failed on', async (t) => {
  const log = gunzipSync(readFileSync(join(FIXTURES, 'redo', 'create-then-rename.ib_logfile0.gz')));
  const server = readFileSync(join(FIXTURES, 'mariadb-10.11-error-logs', 'partitions-create-then-rename.log'), 'utf8');
  const said = (re: RegExp) => Number(re.exec(server)![1]);
  const parsed = parseRedoFileOps(log)!;
  t.equal(parsed.from, said(/crash recovery from checkpoint LSN=(\d+)/), "from the server's checkpoint");
  t.equal(parsed.to, said(/End of log at LSN=(\d+)/), 'to the end of log the server found');
  const space = said(/before FILE_CHECKPOINT for tablespace (\d+)/);
  t.same(parsed.ops.filter((o) => o.space === space).map((o) => [o.op, o.name, o.newName]), [
    ['create', './sbtest/parts_c4#P#p11.ibd', undefined],
    ['rename', './sbtest/parts_c4#P#p11.ibd', './sbtest/#sql-ib105.ibd'],
  ]);
  t.ok(parsed.ops.every((o) => o.op !== 'modify'), 'FILE_MODIFY is left out');
  t.ok(parsed.ops.every((o, i) => i === 0 || o.lsn >= parsed.ops[i - 1]!.lsn), 'in log order');
});

t.test('a real log: the writes to page 0 that cover a tablespace\'s size or flags', async (t) => {
  const log = gunzipSync(readFileSync(join(FIXTURES, 'redo', 'create-then-rename.ib_logfile0.gz')));
  const server = readFileSync(join(FIXTURES, 'mariadb-10.11-error-logs', 'partitions-create-then-rename.log'), 'utf8');
  const space = Number(/before FILE_CHECKPOINT for tablespace (\d+)/.exec(server)![1]);
  const parsed = parseRedoFileOps(log)!;
  const headers = parsed.page0Headers!;
  t.comment(`${headers.length} page-0 header writes: ${JSON.stringify(headers)}`);
  const creates = parsed.ops.filter((o) => o.op === 'create');
  const written = (o: RedoFileOp, field: 'size' | 'flags') => headers.some((h) => h.lsn === o.lsn && h.space === o.space && h[field] !== null);
  t.same(creates.filter((o) => !written(o, 'size') || !written(o, 'flags')), [], `each of the ${creates.length} tablespaces created has its size and flags written in the mini-transaction that creates it`);
  const created = creates.find((o) => o.space === space)!.lsn;
  t.ok(headers.every((h, i) => i === 0 || h.lsn >= headers[i - 1]!.lsn), 'in log order');
  t.ok(headers.every((h) => h.space !== 0 && h.space !== 0xfffffffe), 'none to the system or the temporary tablespace');
  t.ok(headers.every((h) => h.size === null || h.size > 0), 'a size is never zero');
  t.same(headers.filter((h) => h.space === space), [
    { lsn: created, space, size: 4, flags: null },
    { lsn: created, space, size: null, flags: 0x15 },
    { lsn: 16590809, space, size: 5, flags: null },
  ], `tablespace ${space}: its size and flags written where it is created, then its size again`);
});

/** A variable-length number as the format writes it. */
function varint(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x4080) return [0x80 | ((n - 0x80) >> 8), (n - 0x80) & 0xff];
  if (n < 0x204080) return [0xc0 | ((n - 0x4080) >> 16), ((n - 0x4080) >> 8) & 0xff, (n - 0x4080) & 0xff];
  const v = n - 0x204080;
  return [0xe0 | Math.floor(v / 0x1000000), (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff];
}

/** A record: first byte `type` (with same_page in bit 7), the length, then the body. */
function record(type: number, body: number[]): number[] {
  if (body.length <= 15) return [type | body.length, ...body];
  if (body.length <= 141) return [type, body.length - 14, ...body];
  const v = body.length - 141;
  return [type, 0x80 | (v >> 8), v & 0xff, ...body];
}

const FILE_TYPES = { create: 0x80, delete: 0x90, rename: 0xa0, modify: 0xb0 } as const;

function fileRecord(op: RedoFileOp): number[] {
  const name = [...Buffer.from(op.name, 'latin1'), ...(op.newName ? [0, ...Buffer.from(op.newName, 'latin1')] : [])];
  return record(FILE_TYPES[op.op], [...varint(op.space), 0, ...name]);
}

type HeaderWrite = Omit<Page0HeaderWrite, 'lsn'>;

/** Page records as the writer wrote them: their bytes, and the page-0 header writes a parse must find in them. */
interface PageRecords {
  bytes: number[];
  headers: HeaderWrite[];
}

const SAME_PAGE = 0x80;
const TYPE = { free: 0x00, init: 0x10, extended: 0x20, write: 0x30, memset: 0x40, memmove: 0x50, reserved: 0x60, option: 0x70 } as const;
type PageType = keyof typeof TYPE;
const FSP_SIZE_AT = 46; // FSP_HEADER_OFFSET 38 + FSP_SIZE 8
const FSP_FLAGS_AT = 54; // FSP_HEADER_OFFSET 38 + FSP_SPACE_FLAGS 16
const TEMPORARY = 0xfffffffe;

/** The size and flags a WRITE of `data` at `start` on page 0 of `space` covers whole; null when it covers neither. */
function expectedHeader(space: number, start: number, data: number[]): HeaderWrite | null {
  if (space === 0 || space === TEMPORARY) return null;
  const field = (at: number) => (start <= at && start + data.length >= at + 4 ? Buffer.from(data).readUInt32BE(at - start) : null);
  const size = field(FSP_SIZE_AT);
  const flags = field(FSP_FLAGS_AT);
  return size === null && flags === null ? null : { space, size, flags };
}

/**
 * A writer of the page records on one page: the first names the page (tablespace id, page number),
 * the others carry same_page; it keeps last_offset as the format moves it, so each WRITE, MEMSET and
 * MEMMOVE can be placed at an offset on the page.
 */
function onPage(space: number, page: number) {
  const out: PageRecords = { bytes: [], headers: [] };
  let offset = 0;
  let first = true;
  const emit = (type: PageType, rest: number[]) => {
    out.bytes.push(...record(TYPE[type] | (first ? 0 : SAME_PAGE), [...(first ? [...varint(space), ...varint(page)] : []), ...rest]));
    first = false;
  };
  return {
    out,
    /** FREE_PAGE, INIT_PAGE, EXTENDED, RESERVED or OPTION, with `rest` after the page's numbers. */
    plain(type: Exclude<PageType, 'write' | 'memset' | 'memmove'>, rest: number[] = []) {
      emit(type, rest);
      if (type === 'free') offset = 1;
      if (type === 'init' || type === 'extended') offset = 24;
    },
    write(start: number, data: number[]) {
      emit('write', [...varint(start - offset), ...data]);
      const header = page === 0 ? expectedHeader(space, start, data) : null;
      if (header) out.headers.push(header);
      offset = start + data.length;
    },
    /** MEMSET (fill bytes) or MEMMOVE (a source) of `length` bytes at `start`. */
    fill(type: 'memset' | 'memmove', start: number, length: number, rest: number[]) {
      emit(type, [...varint(start - offset), ...varint(length), ...rest]);
      offset = start + length;
    },
    /** Where the next WRITE, MEMSET or MEMMOVE may start: at or after last_offset. */
    get offset() {
      return offset;
    },
  };
}

const bytes = (rng: Rng, n: number): number[] => Array.from({ length: n }, () => rng.int(256));

/**
 * Seeded records on one page: a first record of any type, then same_page records (none after a
 * FREE_PAGE, and never a FREE_PAGE or INIT_PAGE), the page often page 0 and its WRITEs often near
 * the space header, of every length encoding.
 */
function seededPage(rng: Rng): PageRecords {
  const space = [0, TEMPORARY, 1 + rng.int(300), 70000 + rng.int(1e6)][rng.int(4)]!;
  const w = onPage(space, rng.int(2) ? 0 : 1 + rng.int(70000));
  const count = 1 + rng.int(4);
  for (let i = 0; i < count; i++) {
    const type = (Object.keys(TYPE) as PageType[])[i === 0 ? rng.int(8) : 2 + rng.int(6)]!;
    const start = Math.max(w.offset, 30 + rng.int(30)) + rng.int(3);
    if (type === 'write') w.write(start, bytes(rng, [1 + rng.int(20), 4, 8, 200][rng.int(4)]!));
    else if (type === 'memset') w.fill(type, start, 1 + rng.int(30), bytes(rng, 1 + rng.int(3)));
    else if (type === 'memmove') w.fill(type, start, 1 + rng.int(30), varint(rng.int(300)));
    else if (type === 'extended') w.plain(type, rng.int(2) ? [rng.int(2)] : [3, ...bytes(rng, 4 + rng.int(30))]);
    else if (type === 'option' || type === 'reserved') w.plain(type, bytes(rng, 1 + rng.int(5)));
    else w.plain(type);
    if (type === 'free') break;
  }
  return w.out;
}

/** A mini-transaction's page records: one to three pages' worth. */
function pageRecords(rng: Rng): PageRecords {
  const pages = Array.from({ length: 1 + rng.int(3) }, () => seededPage(rng));
  return { bytes: pages.flatMap((p) => p.bytes), headers: pages.flatMap((p) => p.headers) };
}

const u64 = (n: number): number[] => [0, 0, ...Array.from({ length: 6 }, (_, i) => Math.floor(n / 256 ** (5 - i)) % 256)];

/**
 * An empty log of `capacity` bytes after its header, whose checkpoint is at `checkpoint`; `put`
 * writes a mini-transaction's records at an LSN, with its sequence bit and CRC, wrapping as the file does.
 */
/** The header's checkpoint block naming `lsn`, with its CRC. */
function checkpointBlock(lsn: number): Buffer {
  const block = Buffer.alloc(64);
  block.set(u64(lsn), 0);
  block.set(u64(lsn), 8);
  block.writeUInt32BE(crc32c(block, 0, 60), 60);
  return block;
}

function logFile(capacity: number, checkpoint: number) {
  const firstLsn = REDO_HEADER_BYTES;
  const log = Buffer.alloc(REDO_HEADER_BYTES + capacity);
  log.write('Phys', 0, 'latin1');
  log.set(u64(firstLsn), 8);
  checkpointBlock(checkpoint).copy(log, 4096);
  const bitAt = (lsn: number) => 1 & ~Math.floor((lsn - firstLsn) / capacity);
  const put = (lsn: number, body: number[]): number => {
    const bytes = [...body, bitAt(lsn + body.length), ...u32(crc32c(Uint8Array.from(body)))];
    bytes.forEach((b, i) => (log[REDO_HEADER_BYTES + ((lsn + i - firstLsn) % capacity)] = b));
    return lsn + bytes.length;
  };
  return { log, firstLsn, put };
}

/** `log` with its checkpoint block naming `lsn`. */
function withCheckpoint(log: Buffer, lsn: number): Buffer {
  const out = Buffer.from(log);
  checkpointBlock(lsn).copy(out, 4096);
  return out;
}

interface Synthetic {
  log: Buffer;
  checkpoint: number;
  end: number;
  ops: RedoFileOp[];
  headers: Page0HeaderWrite[];
}

/** A log whose mini-transactions start at `checkpoint` and may wrap around the file's end. */
function synthetic(rng: Rng, capacity: number, checkpointOffset: number): Synthetic {
  const lap = 1 + rng.int(3);
  const checkpoint = REDO_HEADER_BYTES + lap * capacity + checkpointOffset;
  const { log, put } = logFile(capacity, checkpoint);
  // the previous lap's bytes: valid mini-transactions with the other sequence bit
  for (let lsn = checkpoint - capacity; ; ) {
    const body = pageRecords(rng).bytes;
    if (lsn + body.length + 5 > checkpoint) break;
    lsn = put(lsn, body);
  }
  const ops: RedoFileOp[] = [];
  const headers: Page0HeaderWrite[] = [];
  let lsn = checkpoint;
  const count = 10 + rng.int(60);
  for (let i = 0; i < count; i++) {
    const mtrOps: RedoFileOp[] = [];
    if (rng.int(3) === 0) {
      const op = (['create', 'delete', 'rename', 'modify'] as const)[rng.int(4)]!;
      const name = `./db/t${rng.int(1000)}#P#p${rng.int(9)}.ibd`;
      mtrOps.push({ lsn, op, space: rng.int(5) === 0 ? 70000 + rng.int(1e6) : rng.int(200), name, ...(op === 'rename' ? { newName: `./db/#sql-ib${rng.int(999)}.ibd` } : {}) });
    }
    const pages = pageRecords(rng);
    const body = [...mtrOps.flatMap(fileRecord), ...pages.bytes];
    if (lsn + body.length + 5 - checkpoint > capacity) break; // the log holds one lap
    ops.push(...mtrOps.filter((o) => o.op !== 'modify'));
    headers.push(...pages.headers.map((h) => ({ lsn, ...h })));
    lsn = put(lsn, body);
  }
  // what follows the end: the previous lap's bytes, or a torn mini-transaction
  return { log, checkpoint, end: lsn, ops, headers };
}

const u32 = (n: number): number[] => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

t.test('seeded synthetic logs: every file operation and page-0 header write, in order, across the wrap, and the end found', async (t) => {
  const seen = { size: 0, flags: 0, both: 0 };
  for (let seed = 1; seed <= 200; seed++) {
    const rng = createRng(seed);
    const capacity = 4096 * (2 + rng.int(6));
    const s = synthetic(rng, capacity, rng.int(capacity));
    const parsed = parseRedoFileOps(s.log);
    if (!parsed) {
      t.fail(`seed ${seed}: not parsed`);
      continue;
    }
    t.equal(parsed.from, s.checkpoint, `seed ${seed}: from the checkpoint`);
    t.equal(parsed.to, s.end, `seed ${seed}: the end is where the written mini-transactions stop`);
    t.same(parsed.ops, s.ops, `seed ${seed}: ${s.ops.length} file operations`);
    t.same(parsed.page0Headers, s.headers, `seed ${seed}: ${s.headers.length} page-0 header writes`);
    for (const h of s.headers) seen[h.size !== null && h.flags !== null ? 'both' : h.size !== null ? 'size' : 'flags']++;
  }
  t.ok(seen.size > 50 && seen.flags > 50 && seen.both > 50, `header writes of each kind: ${JSON.stringify(seen)}`);
});

/** The records one page writer writes. */
function on(space: number, page: number, write: (w: ReturnType<typeof onPage>) => void): number[] {
  const w = onPage(space, page);
  write(w);
  return w.out.bytes;
}

/** A log holding one mini-transaction of `records` right after its checkpoint. */
function oneMtr(records: number[]): { log: Buffer; checkpoint: number; end: number } {
  const checkpoint = REDO_HEADER_BYTES + 100;
  const file = logFile(16384, checkpoint);
  return { log: file.log, checkpoint, end: file.put(checkpoint, records) };
}

t.test('page records by hand: the offset each type leaves, and exactly the header writes recovery takes', async (t) => {
  // the space header from FIL_PAGE_DATA (38): space id, unused, size 320, free limit, flags 0x15, fragment pages used
  const header = [0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 1, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0x15, 0, 0, 0, 0];
  const long = Array.from({ length: 200 }, (_, i) => i);
  const cases: [string, number[], HeaderWrite[]][] = [
    // the same_page WRITE after it starts with 0xb0 | length, as a FILE_MODIFY would: after a page record it is none
    ['a WRITE over the whole space header, after a FILE_CREATE', [...fileRecord({ lsn: 0, op: 'create', space: 7, name: './db/t.ibd' }), ...on(7, 0, (w) => { w.write(38, header); w.write(70, [1]); })], [{ space: 7, size: 320, flags: 0x15 }]],
    ['a WRITE over half of FSP_SIZE, then a same_page WRITE over the flags', on(7, 0, (w) => { w.write(40, [1, 2, 3, 4, 5, 6, 7, 8]); w.write(54, [0, 0, 0, 0x21]); }), [{ space: 7, size: null, flags: 0x21 }]],
    ['the system tablespace and the temporary one do not count', [...on(0, 0, (w) => w.write(38, header)), ...on(TEMPORARY, 0, (w) => w.write(38, header))], []],
    ['a page other than page 0 does not count', on(9, 3, (w) => w.write(38, header)), []],
    ['INIT_PAGE leaves the offset at FIL_PAGE_TYPE', on(9, 0, (w) => { w.plain('init'); w.write(46, [0, 0, 0, 64]); }), [{ space: 9, size: 64, flags: null }]],
    ['EXTENDED leaves it at FIL_PAGE_TYPE', on(10, 0, (w) => { w.plain('extended', [1]); w.write(54, [0, 0, 0, 5]); }), [{ space: 10, size: null, flags: 5 }]],
    ['MEMSET moves it past the bytes it fills, and changes no field itself', on(11, 0, (w) => { w.fill('memset', 30, 30, [0]); w.write(60, [9]); w.write(61, [0]); }), []],
    ['MEMSET, then a WRITE right after it', on(11, 0, (w) => { w.fill('memset', 30, 16, [0]); w.write(46, [0, 0, 2, 0]); }), [{ space: 11, size: 512, flags: null }]],
    ['MEMMOVE moves it past the bytes it moves', on(12, 0, (w) => { w.fill('memmove', 40, 10, varint(8)); w.write(54, [0, 0, 0, 0x21]); }), [{ space: 12, size: null, flags: 0x21 }]],
    ['OPTION and RESERVED leave it', on(13, 0, (w) => { w.write(40, [1, 2]); w.plain('option', [1, 0, 0, 0, 0]); w.plain('reserved', [9]); w.write(46, [0, 0, 0, 3, 0, 0, 0, 0]); }), [{ space: 13, size: 3, flags: null }]],
    ['FREE_PAGE; a WRITE from past FSP_SIZE over the flags; one that ends short of both', [
      ...on(14, 0, (w) => w.plain('free')),
      ...on(14, 0, (w) => w.write(47, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x21, 0, 0, 0])),
      ...on(14, 0, (w) => w.write(38, [0, 0, 0, 14, 0, 0, 0, 0, 0, 0, 1])),
    ], [{ space: 14, size: null, flags: 0x21 }]],
    ['a WRITE of 200 bytes (a record with two length bytes)', on(70000, 0, (w) => w.write(30, long)), [{ space: 70000, size: 0x10111213, flags: 0x18191a1b }]],
    ['a malformed page record is skipped with the same_page records after it', [
      ...record(TYPE.write, [16, 0, 0xc0]), // the offset's number runs past the record
      ...record(TYPE.write | SAME_PAGE, [46, 0, 0, 0, 9]),
      ...on(16, 0, (w) => w.write(54, [0, 0, 0, 0x21])),
    ], [{ space: 16, size: null, flags: 0x21 }]],
  ];
  for (const [what, records, expected] of cases) {
    const { log, checkpoint, end } = oneMtr(records);
    const parsed = parseRedoFileOps(log)!;
    t.equal(parsed.to, end, `${what}: the mini-transaction parsed whole`);
    t.same(parsed.page0Headers, expected.map((h) => ({ lsn: checkpoint, ...h })), what);
  }
  t.same(parseRedoFileOps(oneMtr(cases[0]![1]).log)!.ops, [{ lsn: REDO_HEADER_BYTES + 100, op: 'create', space: 7, name: './db/t.ibd' }], 'the file record before the page records, and no other');
});

t.test('read from the file from the checkpoint on, a window at a time: the same as the whole log parsed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-redo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const differ: string[] = [];
  let grown = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const rng = createRng(seed);
    const capacity = 4096 * (2 + rng.int(6));
    const s = synthetic(rng, capacity, rng.int(capacity));
    writeFileSync(join(dir, 'ib_logfile0'), s.log);
    const window = 512 * (1 + rng.int(8)); // smaller than most logs: the reader must grow it, across the wrap
    if (s.end - s.checkpoint > window) grown++;
    const read = await readRedoFileOps(dir, window);
    if (JSON.stringify(read) !== JSON.stringify(parseRedoFileOps(s.log))) differ.push(`seed ${seed}`);
  }
  t.same(differ, [], 'every log read as parsed whole');
  t.ok(grown > 100, `${grown} of 200 logs ran past the first window`);
  const real = gunzipSync(readFileSync(join(FIXTURES, 'redo', 'create-then-rename.ib_logfile0.gz')));
  writeFileSync(join(dir, 'ib_logfile0'), real);
  t.same(await readRedoFileOps(dir), parseRedoFileOps(real), 'the real log, with the default window');
  t.equal(await readRedoFileOps(join(dir, 'none')), null, 'no log: null');
});

t.test('a memo of parsed mini-transactions across logs: each read as parsed whole, whatever changed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-redo-memo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const memo = new RedoParseMemo();
  const differ: string[] = [];
  let changed = 0;
  for (let seed = 1; seed <= 100; seed++) {
    const rng = createRng(1000 + seed);
    const capacity = 4096 * (2 + rng.int(6));
    const s = synthetic(rng, capacity, rng.int(capacity));
    // the log as one state has it, then with a byte changed (a torn or newer write), then as it was
    const variant = Buffer.from(s.log);
    const at = REDO_HEADER_BYTES + rng.int(capacity);
    variant[at] = variant[at]! ^ (1 + rng.int(255));
    if (JSON.stringify(parseRedoFileOps(variant)) !== JSON.stringify(parseRedoFileOps(s.log))) changed++;
    // a later state: the checkpoint moved on to a later mini-transaction of the same log
    const later = [...s.ops, ...s.headers].map((o) => o.lsn).filter((lsn) => lsn > s.checkpoint);
    const moved = later.length ? withCheckpoint(s.log, later[rng.int(later.length)]!) : s.log;
    for (const [name, bytes] of [['log', s.log], ['variant', variant], ['log again', s.log], ['checkpoint moved on', moved]] as const) {
      writeFileSync(join(dir, 'ib_logfile0'), bytes);
      const read = await readRedoFileOps(dir, 512 * (1 + rng.int(8)), memo);
      if (JSON.stringify(read) !== JSON.stringify(parseRedoFileOps(bytes))) differ.push(`seed ${seed}: ${name}`);
    }
  }
  t.same(differ, [], 'every log read with the memo as parsed whole without it');
  t.ok(changed > 10, `${changed} of 100 changed bytes changed what the log says (the others fell past its end or in the last lap)`);
  t.ok(memo.reused > memo.misses, `${memo.reused} mini-transactions taken from kept parses, ${memo.misses} parsed`);
});

t.test('a memo across lanes: logs of different states taken in turn are each parsed once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-redo-lanes-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const memo = new RedoParseMemo();
  // three lanes' states, unrelated logs of one shape (same size and first LSN), judged in turn
  const logs = [11, 12, 13].map((seed) => synthetic(createRng(seed), 4096 * 6, 1000).log);
  const differ: string[] = [];
  const parsedInRound: number[] = [];
  for (let round = 0; round < 3; round++) {
    const before = memo.misses;
    for (const [i, log] of logs.entries()) {
      writeFileSync(join(dir, 'ib_logfile0'), log);
      const read = await readRedoFileOps(dir, undefined, memo);
      if (JSON.stringify(read) !== JSON.stringify(parseRedoFileOps(log))) differ.push(`round ${round}, lane ${i}`);
    }
    parsedInRound.push(memo.misses - before);
  }
  t.same(differ, [], 'every log read with the memo as parsed whole without it');
  t.ok(parsedInRound[0]! > 30, `the first round parses each log (${parsedInRound[0]} mini-transactions)`);
  t.same(parsedInRound.slice(1), [0, 0], 'later rounds take every mini-transaction from the parse kept for its lane');
});

t.test('a bad CRC ends the log there', async (t) => {
  const s = synthetic(createRng(7), 16384, 100);
  const parsed = parseRedoFileOps(s.log)!;
  t.ok(parsed.ops.length > 0 || parsed.to > s.checkpoint);
  const at = REDO_HEADER_BYTES + ((s.checkpoint + 2 - REDO_HEADER_BYTES) % 16384);
  s.log[at] = s.log[at]! ^ 0xff;
  t.equal(parseRedoFileOps(s.log)!.to, s.checkpoint, 'the first mini-transaction is corrupt: nothing after the checkpoint');
});

t.test('not a 10.8+ log: null', async (t) => {
  t.equal(parseRedoFileOps(Buffer.alloc(REDO_HEADER_BYTES + 4096)), null);
});
