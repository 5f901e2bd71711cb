/**
 * The redo log's file operations (rig/pages/redo-file-ops.ts):
 * - on a real MariaDB 10.11.19 log (test/fixtures/redo), the parse ends where the server's own
 *   recovery said the log ends, and finds the create and rename the server then failed on;
 * - on seeded synthetic logs written by the format's rules, every file operation comes back in
 *   order, across the wrap of the circular file, with records of every length encoding, and the
 *   log ends at a bad CRC or at a mini-transaction of the previous lap.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createRng, type Rng } from '../../faults/prng.js';
import { crc32c } from '../../rig/pages/crc32c.js';
import { parseRedoFileOps, readRedoFileOps, type RedoFileOp } from '../../rig/pages/redo-file-ops.js';
import { REDO_HEADER_BYTES } from '../../rig/pages/redo-checkpoint.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

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

/** A page record (WRITE, same_page 0) of some length, and maybe more on the same page. */
function pageRecords(rng: Rng): number[] {
  const data = Array.from({ length: [1, 20, 200][rng.int(3)]! }, () => rng.int(256));
  const first = record(0x30, [...varint(rng.int(300)), ...varint(rng.int(70000)), ...varint(rng.int(100)), ...data]);
  return rng.int(2) ? [...first, ...record(0xb0, [3, 1, 2])] : first;
}

const u64 = (n: number): number[] => [0, 0, ...Array.from({ length: 6 }, (_, i) => Math.floor(n / 256 ** (5 - i)) % 256)];

interface Synthetic {
  log: Buffer;
  checkpoint: number;
  end: number;
  ops: RedoFileOp[];
}

/** A log whose mini-transactions start at `checkpoint` and may wrap around the file's end. */
function synthetic(rng: Rng, capacity: number, checkpointOffset: number): Synthetic {
  const firstLsn = REDO_HEADER_BYTES;
  const lap = 1 + rng.int(3);
  const checkpoint = firstLsn + lap * capacity + checkpointOffset;
  const log = Buffer.alloc(REDO_HEADER_BYTES + capacity);
  log.write('Phys', 0, 'latin1');
  log.set(u64(firstLsn), 8);
  const block = Buffer.alloc(64);
  block.set(u64(checkpoint), 0);
  block.set(u64(checkpoint), 8);
  block.writeUInt32BE(crc32c(block, 0, 60), 60);
  block.copy(log, 4096);
  const put = (lsn: number, bytes: number[]) => bytes.forEach((b, i) => (log[REDO_HEADER_BYTES + ((lsn + i - firstLsn) % capacity)] = b));
  const bitAt = (lsn: number) => 1 & ~Math.floor((lsn - firstLsn) / capacity);
  // the previous lap's bytes: valid mini-transactions with the other sequence bit
  for (let lsn = checkpoint - capacity; lsn < checkpoint; ) {
    const body = pageRecords(rng);
    put(lsn, [...body, bitAt(lsn + body.length), ...u32(crc32c(Uint8Array.from(body)))]);
    lsn += body.length + 5;
    if (lsn + 300 > checkpoint) break;
  }
  const ops: RedoFileOp[] = [];
  let lsn = checkpoint;
  const count = 5 + rng.int(40);
  for (let i = 0; i < count && lsn - checkpoint < capacity - 600; i++) {
    const mtrOps: RedoFileOp[] = [];
    if (rng.int(3) === 0) {
      const op = (['create', 'delete', 'rename', 'modify'] as const)[rng.int(4)]!;
      const name = `./db/t${rng.int(1000)}#P#p${rng.int(9)}.ibd`;
      mtrOps.push({ lsn, op, space: rng.int(5) === 0 ? 70000 + rng.int(1e6) : rng.int(200), name, ...(op === 'rename' ? { newName: `./db/#sql-ib${rng.int(999)}.ibd` } : {}) });
    }
    const body = [...mtrOps.flatMap(fileRecord), ...pageRecords(rng)];
    put(lsn, [...body, bitAt(lsn + body.length), ...u32(crc32c(Uint8Array.from(body)))]);
    ops.push(...mtrOps.filter((o) => o.op !== 'modify'));
    lsn += body.length + 5;
  }
  // what follows the end: the previous lap's bytes, or a torn mini-transaction
  return { log, checkpoint, end: lsn, ops };
}

const u32 = (n: number): number[] => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

t.test('seeded synthetic logs: every file operation, in order, across the wrap, and the end found', async (t) => {
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
  }
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
