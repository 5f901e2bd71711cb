/**
 * Pages the disk made durable in pieces (rig/cycle/tears-beyond-journal.ts): real MariaDB pages
 * re-stamped with full_crc32, written to the device by hand-made durable writes of whole and
 * partial versions, the way page-cache writeback sends a buffered page. A seeded property test:
 * whenever the resulting bytes fail the verifier, the order log holds the evidence and the page
 * joins the truth as torn; a page one write made durable whole is never added.
 */
import t from 'tap';
import type { JournalEntry } from '../../faults/journal.js';
import type { OrderEvent } from '../../faults/order-log.js';
import { createRng } from '../../faults/prng.js';
import type { PageTruth } from '../../rig/cycle/page-truth.js';
import { addTearsBeyondJournal } from '../../rig/cycle/tears-beyond-journal.js';
import type { ExtentMap, MappedFile } from '../../rig/pages/extent-map.js';
import { verifyPage } from '../../rig/pages/verify-page.js';
import { loadPage, stampPage, writeU32 } from '../fixtures/pages/fixture-pages.js';

const PS = 16384;
const UNIT = 4096;
const BASE = 1 << 20;
const FILE = './db/t.ibd';

function fileMap(): ExtentMap {
  const file: MappedFile = { rel: FILE, kind: 'table', size: 8 * PS, pageSize: PS, firstPage: 0, extents: [{ logical: 0, physical: BASE, length: 8 * PS, unwritten: false }] };
  return { mountPoint: '/m', datadir: '/m/d', files: [file], byDevice: file.extents.map((e) => ({ ...e, file })) };
}

/** Version v of page 3 (LSN 1000 + v, a mark in every unit), stamped whole. */
function version(v: number): Buffer {
  const page = loadPage('full_crc32-16384-p3');
  writeU32(page, 16, 0);
  writeU32(page, 20, 1000 + v);
  for (let u = 0; u < 4; u++) page.fill(v, u * UNIT + 200, u * UNIT + 300);
  stampPage(page, 'full_crc32');
  return page;
}

const write = (seq: number, page: number, from: number, length: number): OrderEvent => ({ kind: 'write', seq, offset: BASE + page * PS + from, length, tUs: seq });
const invalid3 = [{ file: FILE, page: 3 }];

t.test('two durable pieces of different writes: the invalid page is torn, with its writes', async (t) => {
  const order = [write(1, 3, 0, PS), write(2, 3, 0, UNIT), { kind: 'flush', boundary: 3, number: 1, tUs: 3 } as OrderEvent];
  const [page] = addTearsBeyondJournal([], invalid3, order, [], fileMap());
  t.equal(page?.class, 'torn');
  t.same(page?.inPieces, { lastWriters: [1, 2], partialWrites: [2], bytesBeforeWindow: false });
  t.same(page?.unitsNew, [true, false, false, false], 'the first unit holds the newest write');
});

t.test('a page the truth found whole is replaced; a torn one is left as it was', async (t) => {
  const whole: PageTruth = { file: FILE, page: 3, class: 'whole', writeSeqs: [9], unitsNew: [true], durableLsn: 1, newestLsn: 2 };
  const [replaced] = addTearsBeyondJournal([whole], invalid3, [write(4, 3, UNIT, UNIT)], [], fileMap());
  t.equal(replaced?.class, 'torn');
  t.same(replaced?.inPieces, { lastWriters: [4], partialWrites: [4], bytesBeforeWindow: true }, 'one write of the window, the rest from before it');
  t.same(replaced?.writeSeqs, [9], 'the pending writes the truth saw are kept');
  const torn: PageTruth = { ...whole, class: 'torn' };
  t.same(addTearsBeyondJournal([torn], invalid3, [write(4, 3, UNIT, UNIT)], [], fileMap()), [torn]);
});

t.test('no evidence, no change: the scan and the truth still disagree', async (t) => {
  t.same(addTearsBeyondJournal([], invalid3, null, [], fileMap()), [], 'no order log');
  t.same(addTearsBeyondJournal([], invalid3, [write(1, 3, 0, PS)], [], fileMap()), [], 'one write made all of it durable');
  t.same(addTearsBeyondJournal([], invalid3, [write(1, 5, 0, PS)], [], fileMap()), [], 'no write of the window touched it');
  t.same(addTearsBeyondJournal([], invalid3, [write(1, 3, 0, PS), write(2, 3, 0, PS)], [], fileMap()), [], 'whole-page writes only');
});

// Seen in a bulk cycle: pages 16, 23 and 24 of a bulk table created 0.05-0.41 s before the cut's
// window ended were "torn in pieces" by partial writes the disk had taken before the file existed,
// to blocks a dropped table held then (the crash image's map names only today's owner).
t.test('writes made before the file was born were to blocks it did not hold yet: no evidence', async (t) => {
  const born = (bornUs: number): ExtentMap => {
    const map = fileMap();
    map.files[0]!.bornUs = bornUs;
    return { ...map, byDevice: map.files[0]!.extents.map((e) => ({ ...e, file: map.files[0]! })) };
  };
  const order = [write(1, 3, UNIT, PS), write(2, 3, 2 * UNIT, PS), write(5, 3, 0, PS)]; // tUs = seq
  t.same(addTearsBeyondJournal([], invalid3, order, [], born(5)), [], 'only the whole write after its birth: no evidence');
  t.same(addTearsBeyondJournal([], invalid3, order, [], born(3))[0]?.inPieces, undefined, 'born between them: the same');
  t.same(addTearsBeyondJournal([], invalid3, order, [], born(2))[0]?.inPieces, { lastWriters: [5], partialWrites: [2], bytesBeforeWindow: false },
    'born at the second write: that partial write counts');
  t.same(addTearsBeyondJournal([], invalid3, order, [], fileMap())[0]?.inPieces?.partialWrites, [1, 2], 'no birth time kept: every write counts');
});

t.test('a pending write that carried part of the page is evidence too: the writeback that was to complete it', async (t) => {
  const pending: JournalEntry = { seq: 2, offset: BASE + 3 * PS + 2 * UNIT, length: 2 * UNIT, old: Buffer.alloc(2 * UNIT), new: Buffer.alloc(2 * UNIT) };
  const [page] = addTearsBeyondJournal([], invalid3, [write(1, 3, 0, PS), write(2, 3, 2 * UNIT, 2 * UNIT)], [pending], fileMap());
  t.equal(page?.class, 'torn');
  t.same(page?.inPieces, { lastWriters: [1], partialWrites: [2], bytesBeforeWindow: false }, 'its durable bytes from one write, and a pending piece');
});

t.test('a page partly in an extent still unwritten is torn by the extent map, with or without a log', async (t) => {
  const file: MappedFile = {
    rel: FILE, kind: 'table', size: 8 * PS, pageSize: PS, firstPage: 0,
    extents: [{ logical: 0, physical: BASE, length: 3 * PS + UNIT, unwritten: false }, { logical: 3 * PS + UNIT, physical: BASE + 3 * PS + UNIT, length: 5 * PS - UNIT, unwritten: true }],
  };
  const straddling: ExtentMap = { mountPoint: '/m', datadir: '/m/d', files: [file], byDevice: file.extents.map((e) => ({ ...e, file })) };
  const unwritten: PageTruth = { file: FILE, page: 3, class: 'unwritten', writeSeqs: [7], unitsNew: [true, true, true], durableLsn: null, newestLsn: null };
  const [page] = addTearsBeyondJournal([unwritten], invalid3, null, [], straddling);
  t.equal(page?.class, 'torn');
  t.same(page?.partlyUnwritten, { unwrittenBytes: 3 * UNIT }, 'three of its four units read as zeros');
  t.same(page?.writeSeqs, [7]);
  const whollyUnwritten = [{ file: FILE, page: 4 }];
  t.same(addTearsBeyondJournal([], whollyUnwritten, null, [], straddling), [], 'a page wholly in the unwritten extent is not torn by it');
  t.same(addTearsBeyondJournal([unwritten], [], null, [], straddling), [unwritten], 'a page the verifier passed is left alone');
});

t.test('property: bytes that fail the verifier always carry the evidence', async (t) => {
  const rng = createRng(20261130);
  let invalidSeen = 0;
  let validSplit = 0;
  for (let c = 0; c < 300; c++) {
    const device = version(0);
    const order: OrderEvent[] = [];
    const steps = 1 + rng.int(4);
    for (let s = 1; s <= steps; s++) {
      const v = version(rng.int(2) === 0 ? s : s - 1); // now and then a later piece of the same version
      const first = rng.int(4);
      const units = rng.int(3) === 0 ? 4 - first : 1 + rng.int(4 - first); // whole pages and pieces, as writeback sends them
      v.copy(device, first * UNIT, first * UNIT, (first + units) * UNIT);
      order.push(write(s, 3, first * UNIT, units * UNIT));
    }
    const bad = !verifyPage(device, { format: { fullCrc32: true, pageSize: PS, zipSize: 0 }, pageNo: 3, spaceId: null }).valid;
    const added = addTearsBeyondJournal([], bad ? invalid3 : [], order, [], fileMap());
    if (bad) {
      invalidSeen++;
      t.equal(added.length, 1, `case ${c}: invalid bytes are explained by the log`);
    } else if (addTearsBeyondJournal([], invalid3, order, [], fileMap()).length) validSplit++;
  }
  t.ok(invalidSeen > 50, `${invalidSeen} of 300 cases left an invalid page`);
  t.ok(validSplit > 0, `${validSplit} valid pages were written in pieces too: the evidence is needed, not enough; the verifier decides`);
});
