/**
 * Ground truth per page from content (rig/cycle/page-truth.ts): hand-made journals over one
 * tablespace whose versions are real MariaDB pages re-stamped with full_crc32, plus a seeded
 * property test: a page is torn exactly when the crash image's bytes fail the page verifier.
 */
import t from 'tap';
import type { CrashPlan } from '../../faults/crash-plan.js';
import { makePlan } from '../../faults/crash-plan.js';
import type { JournalEntry } from '../../faults/journal.js';
import { createRng } from '../../faults/prng.js';
import { derivePageTruth } from '../../rig/cycle/page-truth.js';
import type { ExtentMap, MappedFile } from '../../rig/pages/extent-map.js';
import { verifyPage } from '../../rig/pages/verify-page.js';
import type { Fate, PendingWrite } from '../../faults/crash-plan.js';
import { loadPage, stampPage, writeU32 } from '../fixtures/pages/fixture-pages.js';

type Tap = import('tap').Test;

const PS = 16384;
const UNIT = 4096;
const BASE = 1 << 20; // device offset of the file's first page
const PAGES = 4;

function fileMap(unwritten = false): ExtentMap {
  const file: MappedFile = {
    rel: './db/t.ibd', kind: 'table', size: PAGES * PS, pageSize: PS, firstPage: 0,
    extents: [{ logical: 0, physical: BASE, length: PAGES * PS, unwritten }],
  };
  return { mountPoint: '/m', datadir: '/m/d', files: [file], byDevice: file.extents.map((e) => ({ ...e, file })) };
}

/** Version v of page 3: its LSN is 1000 + v, and bytes in `units` carry v (checksum re-stamped). */
function version(v: number, units: number[] = [0, 1, 2, 3]): Buffer {
  const page = loadPage('full_crc32-16384-p3');
  writeU32(page, 16, 0);
  writeU32(page, 20, 1000 + v);
  for (const u of units) page.fill(v, u * UNIT + 200, u * UNIT + 300);
  stampPage(page, 'full_crc32');
  return page;
}

function entry(seq: number, page: number, old: Buffer, neu: Buffer, from = 0, length = PS): JournalEntry {
  return { seq, offset: BASE + page * PS + from, length, old: old.subarray(from, from + length), new: neu.subarray(from, from + length) };
}

function plan(journal: JournalEntry[], landed: number[][], unit = UNIT): CrashPlan {
  const writes = journal.map((e, i): PendingWrite => {
    const units = Math.ceil(e.length / unit);
    const l = landed[i]!;
    const fate: Fate = l.length === units ? 'landed' : l.length === 0 ? 'dropped' : 'torn';
    return { seq: e.seq, offset: e.offset, length: e.length, fate, units, unitsLanded: l };
  });
  return { version: 1, seed: 0, atomicUnit: unit, policy: { land: 1, drop: 1, tear: 1 }, writes };
}

function only(journal: JournalEntry[], landed: number[][], map = fileMap()) {
  const truth = derivePageTruth(journal, plan(journal, landed), map, null);
  return truth.pages[0]!;
}

t.test('one write, some units landed: torn, with the durable and newest LSN', async (t) => {
  const p = only([entry(1, 3, version(0), version(1))], [[0, 1]]);
  t.equal(p.class, 'torn');
  t.same(p.unitsNew, [true, true, false, false]);
  t.equal(p.durableLsn, 1000);
  t.equal(p.newestLsn, 1001);
  t.same(p.writeSeqs, [1]);
});

t.test('units the write did not change: the page is whole when the changed ones landed', async (t) => {
  // version 1 changes only unit 0 (header, body) and unit 3 (trailer): units 1 and 2 are the same bytes
  const p = only([entry(1, 3, version(0), version(1, [0, 3]))], [[0, 3]]);
  t.equal(p.class, 'whole');
  t.same(p.unitsNew, [true, true, true, true], 'every unit holds the newest bytes');
});

t.test('a later write that landed whole over a torn one: whole', async (t) => {
  const v0 = version(0), v1 = version(1), v2 = version(2);
  const p = only([entry(1, 3, v0, v1), entry(2, 3, v1, v2)], [[0, 1], [0, 1, 2, 3]]);
  t.equal(p.class, 'whole');
  t.same(p.writeSeqs, [1, 2]);
  t.equal(p.newestLsn, 1002);
});

t.test('an earlier write dropped, a later one torn where it changed nothing: torn', async (t) => {
  // v2 differs from v1 only in units 0 and 3; both landed, so write 2 alone looks whole, but units 1
  // and 2 hold v0 (write 1 was dropped): a mix of v0 and v2
  const v0 = version(0), v1 = version(1), v2 = Buffer.from(v1);
  writeU32(v2, 20, 1002);
  v2.fill(2, 200, 300);
  stampPage(v2, 'full_crc32');
  const p = only([entry(1, 3, v0, v1), entry(2, 3, v1, v2)], [[], [0, 3]]);
  t.equal(p.class, 'torn');
  t.same(p.unitsNew, [true, false, false, true]);
  t.equal(p.durableLsn, 1000);
});

t.test('a page split over two requests: whole only when both halves land, or neither', async (t) => {
  const v0 = version(0), v1 = version(1);
  const halves = [entry(1, 3, v0, v1, 0, PS / 2), entry(2, 3, v0, v1, PS / 2, PS / 2)];
  t.equal(only(halves, [[0, 1], []]).class, 'torn', 'first half landed, second dropped');
  t.equal(only(halves, [[], [0, 1]]).class, 'torn', 'second half landed, first dropped');
  t.equal(only(halves, [[0, 1], [0, 1]]).class, 'whole', 'both landed');
  t.equal(only(halves, [[], []]).class, 'whole', 'both dropped');
  t.same(only(halves, [[0, 1], []]).unitsNew, [true, true, false, false]);
});

t.test('buffered writeback: half a page from one version and half from the next are not a whole version', async (t) => {
  // writeback sends the first half of v1, the server writes v2, writeback sends the second half of
  // v2 and then the first half of v2: the first two writes cover the page but hold two versions
  const v0 = version(0), v1 = version(1), v2 = version(2);
  const mixed = Buffer.concat([v1.subarray(0, PS / 2), v2.subarray(PS / 2)]);
  const journal = [entry(1, 3, v0, v1, 0, PS / 2), entry(2, 3, v0, v2, PS / 2, PS / 2), entry(3, 3, mixed, v2, 0, PS / 2)];
  t.equal(only(journal, [[0, 1], [0, 1], [0, 1]]).class, 'whole', 'all three landed: v2, whole');
  t.equal(only(journal, [[0, 1], [0, 1], []]).class, 'torn', 'the third dropped: half v1, half v2');
  t.equal(only(journal, [[], [], []]).class, 'whole', 'none landed: v0');
  t.equal(only(journal, [[], [0, 1], [0, 1]]).class, 'whole', 'the first dropped, the later two landed: v2');
});

t.test('a page in an extent the image still marks unwritten is classified, not torn', async (t) => {
  const p = only([entry(1, 3, version(0), version(1))], [[0]], fileMap(true));
  t.equal(p.class, 'unwritten');
});

t.test('pages of the system doublewrite area are classified as copies', async (t) => {
  const map = fileMap();
  map.files[0]!.rel = './ibdata1';
  map.files[0]!.kind = 'system';
  const journal = [entry(1, 2, version(0), version(1)), entry(2, 3, version(0), version(1))];
  const truth = derivePageTruth(journal, plan(journal, [[0], [0]]), map, { blocks: [2, 100], blockPages: 1 });
  t.same(truth.pages.map((p) => [p.page, p.class]), [[2, 'doublewrite-area'], [3, 'torn']]);
  t.same(truth.counts, { torn: 1, whole: 0, unwritten: 0, 'doublewrite-area': 1 });
});

t.test('an aligned page write never tears at a 16 KiB atomic unit; a misaligned one can', async (t) => {
  const aligned = [entry(1, 3, version(0), version(1))];
  for (let seed = 1; seed <= 50; seed++) {
    const truth = derivePageTruth(aligned, makePlan(aligned, seed, PS), fileMap(), null);
    if (truth.pages[0]!.class !== 'whole') t.fail(`seed ${seed}: an aligned 16 KiB write tore at a 16 KiB unit`);
  }
  const shifted = fileMap();
  shifted.byDevice[0]!.physical = BASE + UNIT; // the file starts 4 KiB into a 16 KiB unit
  const misaligned = [{ ...entry(1, 3, version(0), version(1)), offset: BASE + UNIT + 3 * PS }];
  const torn = derivePageTruth(misaligned, plan(misaligned, [[0]], PS), shifted, null).pages[0]!;
  t.equal(torn.class, 'torn', 'the first 12 KiB landed in one unit, the last 4 KiB did not');
  t.same(torn.unitsNew, [true, false]);
});

/**
 * The crash image the plan makes of the durable pages, and each touched page's truth against the
 * verifier's word on its bytes: how many were checked and torn, or null (and a failure) at the
 * first page where they differ.
 */
function truthAgainstVerifier(t: Tap, seed: number, journal: JournalEntry[], crashPlan: CrashPlan, durable: Buffer[]): { checked: number; torn: number } | null {
  const unit = crashPlan.atomicUnit;
  const image = Buffer.concat(durable);
  for (const [i, e] of journal.entries()) {
    const first = Math.floor(e.offset / unit);
    for (const u of crashPlan.writes[i]!.unitsLanded) {
      const from = Math.max(e.offset, (first + u) * unit);
      const to = Math.min(e.offset + e.length, (first + u + 1) * unit);
      e.new.copy(image, from - BASE, from - e.offset, to - e.offset);
    }
  }
  let torn = 0;
  const pages = derivePageTruth(journal, crashPlan, fileMap(), null).pages;
  for (const p of pages) {
    const content = image.subarray(p.page * PS, (p.page + 1) * PS);
    const valid = verifyPage(content, { format: { fullCrc32: true, pageSize: PS, zipSize: 0 }, pageNo: 3, spaceId: null }).valid;
    if (p.class === 'torn') torn++;
    if ((p.class === 'torn') === valid) {
      t.fail(`seed ${seed}, page ${p.page}: truth says ${p.class}, the verifier says ${valid ? 'valid' : 'invalid'}`);
      return null;
    }
  }
  return { checked: pages.length, torn };
}

/**
 * Seeded property: random sequences of whole-page versions (each a valid page), written whole or
 * split in two requests, over the file's pages, with random plans. Torn (the truth) must equal
 * "the crash image's page fails the verifier" (the content), for every page and every seed.
 */
t.test('property: torn exactly when the crash content fails the verifier', async (t) => {
  let checked = 0;
  let tornSeen = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const rng = createRng(seed);
    const pages = Array.from({ length: PAGES }, () => version(0));
    const durable = pages.map((p) => Buffer.from(p));
    const journal: JournalEntry[] = [];
    let v = 1;
    for (let w = 0; w < 1 + rng.int(8); w++) {
      const page = rng.int(PAGES);
      const next = version(v++, [0, 1, 2, 3].filter(() => rng.next() < 0.6));
      if (rng.next() < 0.3) {
        journal.push(entry(journal.length + 1, page, pages[page]!, next, 0, PS / 2));
        journal.push(entry(journal.length + 1, page, pages[page]!, next, PS / 2, PS / 2));
      } else {
        journal.push(entry(journal.length + 1, page, pages[page]!, next));
      }
      pages[page] = next;
    }
    const outcome = truthAgainstVerifier(t, seed, journal, makePlan(journal, seed, [512, 4096, 8192][rng.int(3)]!), durable);
    if (!outcome) return;
    checked += outcome.checked;
    tornSeen += outcome.torn;
  }
  t.ok(checked > 500, `${checked} pages checked`);
  t.ok(tornSeen > 50 && tornSeen < checked, `${tornSeen} of them torn: both outcomes exercised`);
});

/**
 * Seeded property, buffered writes: the server writes whole versions into a page cache, and
 * writeback sends runs of a page's dirty 4 KiB blocks, resuming where its last run stopped and
 * wrapping, with the content the cache holds at that moment; so one page's blocks may reach the
 * disk from versions the server wrote at different times. Torn must still equal "fails the verifier".
 */
t.test('property, buffered writeback: torn exactly when the crash content fails the verifier', async (t) => {
  const BLOCKS = PS / UNIT;
  let checked = 0;
  let tornSeen = 0;
  let mixedWindows = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const rng = createRng(seed);
    const cache = Array.from({ length: PAGES }, () => version(0));
    const device = cache.map((p) => Buffer.from(p));
    const durable = cache.map((p) => Buffer.from(p));
    const dirty = cache.map(() => new Set<number>());
    const cursor = cache.map(() => 0);
    const versionOf = cache.map(() => [0, 0, 0, 0]); // the LSN of the version each device block came from (0: the first)
    const journal: JournalEntry[] = [];
    let v = 1;
    for (let step = 0; step < 4 + rng.int(10); step++) {
      const page = rng.int(PAGES);
      if (dirty[page]!.size === 0 || rng.next() < 0.35) {
        cache[page] = version(v++, [0, 1, 2, 3].filter(() => rng.next() < 0.6));
        for (let b = 0; b < BLOCKS; b++) dirty[page]!.add(b);
        continue;
      }
      // one run: from the cursor (wrapping to the first dirty block), over contiguous dirty blocks
      let from = cursor[page]!;
      if (!dirty[page]!.has(from)) from = Math.min(...dirty[page]!);
      let to = from;
      const most = 1 + rng.int(BLOCKS);
      while (to < BLOCKS && dirty[page]!.has(to) && to - from < most) to++;
      journal.push(entry(journal.length + 1, page, Buffer.from(device[page]!), cache[page]!, from * UNIT, (to - from) * UNIT));
      cache[page]!.copy(device[page]!, from * UNIT, from * UNIT, to * UNIT);
      const lsn = cache[page]!.readUInt32BE(20);
      for (let b = from; b < to; b++) dirty[page]!.delete(b), (versionOf[page]![b] = lsn);
      if (new Set(versionOf[page]).size > 1) mixedWindows++;
      cursor[page] = to % BLOCKS;
    }
    if (journal.length === 0) continue;
    const outcome = truthAgainstVerifier(t, seed, journal, makePlan(journal, seed, UNIT), durable);
    if (!outcome) return;
    checked += outcome.checked;
    tornSeen += outcome.torn;
  }
  t.ok(checked > 300, `${checked} pages checked`);
  t.ok(tornSeen > 50 && tornSeen < checked, `${tornSeen} of them torn: both outcomes exercised`);
  t.ok(mixedWindows > 50, `${mixedWindows} times the disk held a page from more than one version`);
});
