/**
 * Pages the disk made durable in pieces (rig/cycle/split-durable-pages.ts): real MariaDB pages
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
import { addSplitDurablePages } from '../../rig/cycle/split-durable-pages.js';
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
  const [page] = addSplitDurablePages([], invalid3, order, [], fileMap());
  t.equal(page?.class, 'torn');
  t.same(page?.durableSplit, { writeSeqs: [1, 2], bytesBeforeWindow: false });
  t.same(page?.unitsNew, [true, false, false, false], 'the first unit holds the newest write');
});

t.test('a page the truth found whole is replaced; a torn one is left as it was', async (t) => {
  const whole: PageTruth = { file: FILE, page: 3, class: 'whole', writeSeqs: [9], unitsNew: [true], durableLsn: 1, newestLsn: 2 };
  const [replaced] = addSplitDurablePages([whole], invalid3, [write(4, 3, UNIT, UNIT)], [], fileMap());
  t.equal(replaced?.class, 'torn');
  t.same(replaced?.durableSplit, { writeSeqs: [4], bytesBeforeWindow: true }, 'one write of the window, the rest from before it');
  t.same(replaced?.writeSeqs, [9], 'the pending writes the truth saw are kept');
  const torn: PageTruth = { ...whole, class: 'torn' };
  t.same(addSplitDurablePages([torn], invalid3, [write(4, 3, UNIT, UNIT)], [], fileMap()), [torn]);
});

t.test('no evidence, no change: the scan and the truth still disagree', async (t) => {
  t.same(addSplitDurablePages([], invalid3, null, [], fileMap()), [], 'no order log');
  t.same(addSplitDurablePages([], invalid3, [write(1, 3, 0, PS)], [], fileMap()), [], 'one write made all of it durable');
  t.same(addSplitDurablePages([], invalid3, [write(1, 5, 0, PS)], [], fileMap()), [], 'no write of the window touched it');
  const pending: JournalEntry = { seq: 2, offset: BASE + 3 * PS, length: UNIT, old: Buffer.alloc(UNIT), new: Buffer.alloc(UNIT) };
  t.same(addSplitDurablePages([], invalid3, [write(1, 3, 0, PS), write(2, 3, 0, UNIT)], [pending], fileMap()), [], 'a pending write is not a durable one');
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
    const added = addSplitDurablePages([], bad ? invalid3 : [], order, [], fileMap());
    if (bad) {
      invalidSeen++;
      t.equal(added.length, 1, `case ${c}: invalid bytes are explained by the log`);
    } else if (addSplitDurablePages([], invalid3, order, [], fileMap()).length) validSplit++;
  }
  t.ok(invalidSeen > 50, `${invalidSeen} of 300 cases left an invalid page`);
  t.ok(validSplit > 0, `${validSplit} valid pages were written in pieces too: the evidence is needed, not enough; the verifier decides`);
});
