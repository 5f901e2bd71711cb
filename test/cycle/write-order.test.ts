/**
 * The write-order check (rig/cycle/write-order.ts) on synthetic journals over a device holding a
 * redo log and one tablespace: hand-made cases, then a seeded property test of a simulated server
 * that checkpoints honestly (the check never fires at any cut) or issues one page write late, after
 * the flush that made a checkpoint covering it durable (the check names exactly that page).
 */
import t from 'tap';
import type { JournalEntry } from '../../faults/journal.js';
import { createRng } from '../../faults/prng.js';
import { durableFileBytes } from '../../rig/cycle/durable-bytes.js';
import { checkWriteOrder, type WriteOrderInput } from '../../rig/cycle/write-order.js';
import { crc32c } from '../../rig/pages/crc32c.js';
import type { ExtentMap, MappedFile } from '../../rig/pages/extent-map.js';
import { readCheckpointHeader } from '../../rig/pages/redo-checkpoint.js';

const PS = 16384;
const PAGES = 8;
const LOG_AT = 0; // device offset of ib_logfile0
const LOG_BYTES = 65536;
const SPACE_AT = 1 << 20; // device offset of the tablespace

function device(opts: { unwritten?: boolean; kind?: MappedFile['kind']; rel?: string; pages?: number } = {}): ExtentMap {
  const pages = opts.pages ?? PAGES;
  const log: MappedFile = { rel: './ib_logfile0', kind: null, size: LOG_BYTES, pageSize: null, firstPage: 0, extents: [{ logical: 0, physical: LOG_AT, length: LOG_BYTES, unwritten: false }] };
  const space: MappedFile = {
    rel: opts.rel ?? './db/t.ibd', kind: opts.kind ?? 'table', size: pages * PS, pageSize: PS, firstPage: 0,
    extents: [{ logical: 0, physical: SPACE_AT, length: pages * PS, unwritten: opts.unwritten ?? false }],
  };
  const files = [log, space];
  const byDevice = files.flatMap((file) => file.extents.map((e) => ({ ...e, file }))).sort((a, b) => a.physical - b.physical);
  return { mountPoint: '/m', datadir: '/m/d', files, byDevice };
}

/** A page whose header carries `lsn` (the check reads only the LSN field). */
function page(lsn: number): Buffer {
  const p = Buffer.alloc(PS, lsn & 0xff);
  p.writeBigUInt64BE(BigInt(lsn), 16);
  return p;
}

function pageWrite(seq: number, pageNo: number, oldLsn: number, newLsn: number, from = 0, length = PS): JournalEntry {
  return { seq, offset: SPACE_AT + pageNo * PS + from, length, old: page(oldLsn).subarray(from, from + length), new: page(newLsn).subarray(from, from + length) };
}

function check(journal: JournalEntry[], checkpointLsn: number | null, extra: Partial<WriteOrderInput> = {}) {
  const checkpoint = checkpointLsn === null ? { lsn: null, why: 'no redo log' } : { lsn: checkpointLsn };
  return checkWriteOrder({ journal, map: device(), doublewriteArea: null, checkpoint, ...extra });
}

t.test('a pending version older than the durable checkpoint, over an older durable one, is a violation', async (t) => {
  const r = check([pageWrite(7, 3, 100, 150)], 200, { isFree: () => false });
  t.equal(r.violationCount, 1);
  t.same(r.violations, [{ file: './db/t.ibd', page: 3, durableLsn: 100, pendingLsn: 150, seq: 7, offset: SPACE_AT + 3 * PS, length: PS, coveredWrites: 1, free: false }]);
  t.equal(r.pagesChecked, 1);
  t.equal(r.pendingVersions, 1);
});

t.test('versions the checkpoint does not cover, or no newer than the durable one, are in order', async (t) => {
  t.equal(check([pageWrite(1, 3, 100, 200)], 200).violationCount, 0, 'pending LSN equal to the checkpoint');
  t.equal(check([pageWrite(1, 3, 100, 250)], 200).violationCount, 0, 'newer than the checkpoint');
  t.equal(check([pageWrite(1, 3, 150, 150)], 200).violationCount, 0, 'the same version again');
  t.equal(check([pageWrite(1, 3, 180, 120)], 200).violationCount, 0, 'older than the durable version');
  t.equal(check([pageWrite(1, 3, 100, 0)], 200).violationCount, 0, 'a page written as zeros');
});

t.test('the newest covered version of a page is named, and every covered write counted', async (t) => {
  const r = check([pageWrite(1, 2, 100, 120), pageWrite(2, 2, 120, 160), pageWrite(3, 2, 160, 240)], 200);
  t.equal(r.violationCount, 1);
  t.match(r.violations[0], { page: 2, durableLsn: 100, pendingLsn: 160, seq: 2, coveredWrites: 2 });
});

t.test('only writes carrying the whole LSN field give a version; a split page is read from its header part', async (t) => {
  t.equal(check([pageWrite(1, 3, 100, 150, 4096, PS - 4096)], 200).pagesChecked, 0, 'no header');
  t.equal(check([pageWrite(1, 3, 100, 150, 0, 20)], 200).pagesChecked, 0, 'the LSN field cut short');
  const split = check([pageWrite(1, 3, 100, 150, 4096, PS - 4096), pageWrite(2, 3, 100, 150, 0, 4096)], 200);
  t.match(split.violations, [{ page: 3, seq: 2, length: 4096 }]);
});

t.test('a write over several pages gives each page its version', async (t) => {
  const old = Buffer.concat([page(100), page(300)]);
  const neu = Buffer.concat([page(150), page(350)]);
  const r = check([{ seq: 4, offset: SPACE_AT + 5 * PS, length: 2 * PS, old, new: neu }], 200);
  t.equal(r.pagesChecked, 2);
  t.match(r.violations, [{ page: 5, length: 2 * PS }]);
});

t.test('copies are not live pages: the doublewrite area and doublewrite files are left out', async (t) => {
  const system = device({ kind: 'system', rel: './ibdata1' });
  const area = { blocks: [2, 6] as [number, number], blockPages: 2 };
  const inArea = checkWriteOrder({ journal: [pageWrite(1, 3, 100, 150)], map: system, doublewriteArea: area, checkpoint: { lsn: 200 } });
  t.equal(inArea.pagesChecked, 0);
  const outside = checkWriteOrder({ journal: [pageWrite(1, 4, 100, 150)], map: system, doublewriteArea: area, checkpoint: { lsn: 200 } });
  t.equal(outside.violationCount, 1);
  const dblwr = checkWriteOrder({ journal: [pageWrite(1, 3, 100, 150)], map: device({ kind: 'dblwr', rel: './#ib_16384_0.dblwr' }), doublewriteArea: null, checkpoint: { lsn: 200 } });
  t.equal(dblwr.pagesChecked, 0);
});

t.test('a page in an unwritten extent is durable as zeros', async (t) => {
  const r = checkWriteOrder({ journal: [pageWrite(1, 3, 170, 150)], map: device({ unwritten: true }), doublewriteArea: null, checkpoint: { lsn: 200 } });
  t.match(r.violations, [{ page: 3, durableLsn: 0, pendingLsn: 150, unwritten: true }]);
});

t.test('without a durable checkpoint nothing is judged, and the record says why', async (t) => {
  const r = check([pageWrite(1, 3, 100, 150)], null);
  t.same(r, { checkpointLsn: null, why: 'no redo log', pagesChecked: 1, pendingVersions: 1, violationCount: 0, violations: [] });
});

t.test('the record lists the first 64 violations by seq and counts them all', async (t) => {
  const many = Array.from({ length: 160 }, (_, i) => pageWrite(200 - i, i % 80, 10, 20 + i));
  const r = checkWriteOrder({ journal: many, map: device({ pages: 80 }), doublewriteArea: null, checkpoint: { lsn: 1000 } });
  t.equal(r.violationCount, 80, 'one per page');
  t.equal(r.violations.length, 64);
  t.same(r.violations.map((v) => v.seq), [...r.violations.map((v) => v.seq)].sort((a, b) => a - b));
  t.equal(r.violations[0]!.seq, 41, 'the lowest seq first: page 79 took its newest covered version from write 41');
});

/** A redo log header with one valid checkpoint block (MariaDB 10.8+ "Phys"). */
function redoHeader(checkpoints: Array<[number, number]>): Buffer {
  const h = Buffer.alloc(12288);
  h.writeUInt32BE(0x50687973, 0);
  for (const [block, lsn] of checkpoints) writeCheckpoint(h, block, lsn);
  return h;
}

function writeCheckpoint(h: Buffer, block: number, lsn: number): void {
  h.fill(0, block, block + 64);
  h.writeBigUInt64BE(BigInt(lsn), block);
  h.writeBigUInt64BE(BigInt(lsn), block + 8);
  h.writeUInt32BE(crc32c(h, block, block + 60), block + 60);
}

t.test('the durable checkpoint: pending writes over the header are undone, the first one over a byte wins', async (t) => {
  const durable = redoHeader([[4096, 500], [8192, 400]]);
  const first = Buffer.from(durable);
  writeCheckpoint(first, 8192, 600);
  const second = Buffer.from(first);
  writeCheckpoint(second, 8192, 700);
  const journal: JournalEntry[] = [
    { seq: 1, offset: LOG_AT + 8192, length: 512, old: durable.subarray(8192, 8704), new: first.subarray(8192, 8704) },
    { seq: 2, offset: LOG_AT + 8192, length: 512, old: first.subarray(8192, 8704), new: second.subarray(8192, 8704) },
  ];
  t.match(readCheckpointHeader(second), { checkpoint: { lsn: 700, block: 8192 } }, 'the crash image, had both landed');
  const back = durableFileBytes(journal, device(), './ib_logfile0', 0, second);
  t.match(readCheckpointHeader(back), { checkpoint: { lsn: 500, block: 4096 } });
  t.same(durableFileBytes(journal, device(), './nope', 0, second), second, 'a file the map lacks is as given');
});

/**
 * A simulated server over the device: a run of operations (page writes with rising LSNs, and
 * checkpoints: flush, write the checkpoint block with the next LSN, flush), cut after a random
 * number of them. With `late`, one page version is held back (its write counts as complete, as
 * in the server's race) and written only after a checkpoint covering it is durable.
 */
type Op = { kind: 'page'; pageNo: number; lsn: number } | { kind: 'flush' } | { kind: 'checkpoint'; lsn: number };

function simulate(seed: number, late: boolean) {
  const rng = createRng(seed);
  const ops: Op[] = [];
  let lsn = 10;
  let held: { pageNo: number; lsn: number } | null = null;
  let heldOnce = false;
  for (let step = 20 + rng.int(40); step > 0; step--) {
    if (rng.next() < 0.7) {
      const free = Array.from({ length: PAGES }, (_, i) => i).filter((i) => i !== held?.pageNo);
      const pageNo = free[rng.int(free.length)]!;
      lsn += 1 + rng.int(50);
      if (late && !heldOnce && rng.next() < 0.3) [held, heldOnce] = [{ pageNo, lsn }, true];
      else ops.push({ kind: 'page', pageNo, lsn });
    } else {
      ops.push({ kind: 'flush' }, { kind: 'checkpoint', lsn: lsn + 1 }, { kind: 'flush' });
      if (held) ops.push({ kind: 'page', ...held });
      held = null;
    }
  }
  const image = Buffer.alloc(SPACE_AT + PAGES * PS);
  image.set(redoHeader([[4096, 1], [8192, 1]]), LOG_AT);
  let journal: JournalEntry[] = [];
  let block = 8192;
  const write = (seq: number, offset: number, bytes: Buffer) => {
    journal.push({ seq, offset, length: bytes.length, old: Buffer.from(image.subarray(offset, offset + bytes.length)), new: bytes });
    image.set(bytes, offset);
  };
  const cutAt = rng.int(ops.length + 1);
  let durableCheckpoint = 1;
  let lastCheckpoint = 1;
  ops.slice(0, cutAt).forEach((op, seq) => {
    if (op.kind === 'flush') {
      journal = [];
      durableCheckpoint = lastCheckpoint;
    } else if (op.kind === 'page') {
      write(seq, SPACE_AT + op.pageNo * PS, page(op.lsn));
    } else {
      block = block === 4096 ? 8192 : 4096;
      const bytes = Buffer.from(image.subarray(LOG_AT + block, LOG_AT + block + 512));
      bytes.writeBigUInt64BE(BigInt(op.lsn), 0);
      bytes.writeBigUInt64BE(BigInt(op.lsn), 8);
      bytes.writeUInt32BE(crc32c(bytes, 0, 60), 60);
      write(seq, LOG_AT + block, bytes);
      lastCheckpoint = op.lsn;
    }
  });
  const durable = readCheckpointHeader(durableFileBytes(journal, device(), './ib_logfile0', 0, image.subarray(LOG_AT, LOG_AT + 12288)));
  const lateWrite = journal.find((e) => e.offset >= SPACE_AT && Number(e.new.readBigUInt64BE(16)) < durableCheckpoint);
  return { journal, durable, durableCheckpoint, late: lateWrite ? { pageNo: (lateWrite.offset - SPACE_AT) / PS, lsn: Number(lateWrite.new.readBigUInt64BE(16)) } : null };
}

t.test('property: an honest server never trips the check; a late page write is named exactly', async (t) => {
  const base = Number(process.env.WRITE_ORDER_SEED ?? Date.now() % 1_000_000);
  let fired = 0;
  for (let i = 0; i < 400; i++) {
    const seed = base + i;
    for (const late of [false, true]) {
      const sim = simulate(seed, late);
      if (sim.durable.checkpoint?.lsn !== sim.durableCheckpoint) {
        t.fail(`seed ${seed}: durable checkpoint read ${JSON.stringify(sim.durable)}, the disk made ${sim.durableCheckpoint} durable`);
        return;
      }
      const r = checkWriteOrder({ journal: sim.journal, map: device(), doublewriteArea: null, checkpoint: { lsn: sim.durable.checkpoint.lsn } });
      if (!late && sim.late) {
        t.fail(`seed ${seed}: the honest simulation wrote a late page`);
        return;
      }
      const expected = sim.late ? [{ page: sim.late.pageNo, pendingLsn: sim.late.lsn }] : [];
      const got = r.violations.map((v) => ({ page: v.page, pendingLsn: v.pendingLsn }));
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        t.fail(`seed ${seed} (replay: WRITE_ORDER_SEED=${seed}), late ${late}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
        return;
      }
      fired += got.length;
    }
  }
  t.ok(fired > 0, `the late write was still pending at some cuts (${fired} of 400; base seed ${base})`);
});
