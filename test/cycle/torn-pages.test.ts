/**
 * The torn pages as recorded before recovery (rig/cycle/torn-pages.ts): the scan's reason, the
 * doublewrite evidence, and the file-level rule that a page 0 the server cannot restore takes the
 * whole file's pages with it.
 */
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageTruth } from '../../rig/cycle/page-truth.js';
import { describeTornPages } from '../../rig/cycle/torn-pages.js';
import type { DatadirScan, DoublewriteCopy } from '../../rig/pages/index.js';
import { makeTempDir, movedPage, tablespaceBytes } from '../fixtures/pages/synthetic-datadir.js';

const PS = 16384;
const truth = (page: number): PageTruth => ({
  file: './db/t.ibd', page, class: 'torn', writeSeqs: [4], unitsNew: [true, false, false, false], durableLsn: 10, newestLsn: 20,
});
const copy = (page: number): DoublewriteCopy => ({ space: 5, page, lsn: 5000, valid: true, source: { file: './ibdata1', slot: 64 + page } });

function datadir(t: Parameters<typeof makeTempDir>[0], firstPages: 'valid' | 'zero', page0Header = false): DatadirScan {
  const dir = makeTempDir(t, 'rig-torn-');
  mkdirSync(join(dir, 'db'));
  const pages = new Map<number, Buffer>();
  if (firstPages === 'valid') for (const n of [1, 2, 3]) pages.set(n, movedPage('full_crc32-16384-p3', 5, n, 'full_crc32'));
  if (page0Header) pages.set(0, movedPage('full_crc32-16384-p3', 5, 0, 'full_crc32')); // torn in the scan's list, headers intact
  writeFileSync(join(dir, 'db', 't.ibd'), tablespaceBytes(PS, pages, 8));
  return {
    datadir: dir, pages: 8, doublewriteArea: null, elapsedMs: 1,
    files: [{ file: './db/t.ibd', space: 5, format: { fullCrc32: true, pageSize: PS, zipSize: 0 }, formatAssumed: false, pages: 8, zeroPages: 0, skippedPages: 0, invalid: [] }],
    invalid: [0, 6].map((page) => ({ file: './db/t.ibd', space: 5, page, reason: 'checksum-mismatch' as const, detail: 'stored 1, computed 2' })),
  };
}

t.test('page 0 with usable pages 1-3: it and the other torn pages of the file are restorable', async (t) => {
  const pages = describeTornPages([truth(6), truth(0)], datadir(t, 'valid'), [copy(0), copy(6)], 1000);
  t.same(pages.map((p) => [p.page, p.doublewrite.restorable]), [[6, true], [0, true]], 'in the order of the truth');
  t.equal(pages[0]!.invalidBefore, 'checksum-mismatch: stored 1, computed 2');
  t.match(pages[0], { space: 5, writes: 1, durableLsn: 10, newestLsn: 20, validAfter: null, attribution: null });
});

t.test('page 0 whose pages 1-3 are zeros: neither it nor any other page of the file is restorable', async (t) => {
  const pages = describeTornPages([truth(6), truth(0)], datadir(t, 'zero'), [copy(0), copy(6)], 1000);
  t.same(pages.map((p) => p.doublewrite.restorable), [false, false]);
  t.match(pages[1]!.doublewrite.why, /pages 1-3 of the file/);
  t.match(pages[0]!.doublewrite.why, /does not open the file/);
});

t.test("a torn page 0 whose headers name the file's space: found by that id whatever pages 1-3 hold", async (t) => {
  const pages = describeTornPages([truth(0), truth(6)], datadir(t, 'zero', true), [copy(0), copy(6)], 1000);
  t.same(pages.map((p) => p.doublewrite.restorable), [true, true], 'page 0 restorable, so the file opens');
  t.match(pages[0]!.page0, { path: 'header', headerSpaceId: 5, serverLog: [], finding: null });
  t.same(pages[0]!.page0!.firstPages.map((f) => f.state), ['zero', 'zero', 'zero']);
  t.equal(pages[1]!.page0, undefined, 'only page 0 carries page-0 evidence');
});

t.test('page 0 evidence records pages 1-3 and the lookup the server takes', async (t) => {
  const valid = describeTornPages([truth(0)], datadir(t, 'valid'), [copy(0)], 1000);
  t.match(valid[0]!.page0, { path: 'pages-1-3', headerSpaceId: null });
  t.same(valid[0]!.page0!.firstPages.map((f) => f.state), ['valid', 'valid', 'valid']);
  const zero = describeTornPages([truth(0)], datadir(t, 'zero'), [copy(0)], 1000);
  t.match(zero[0]!.page0, { path: 'none' });
});

t.test('copies in unwritten extents: judged as if readable, with page 0 opening the file for the others', async (t) => {
  // as in the refusal that showed it: page 0 and other pages of one file, each copy in a slot the
  // filesystem reads as zeros
  const both = describeTornPages([truth(6), truth(0)], datadir(t, 'valid'), [], 1000, {}, undefined, [copy(0), copy(6)]);
  t.same(both.map((p) => p.doublewrite.restorable), [false, false], 'nothing the server can read');
  t.same(both.map((p) => p.doublewrite.unwritten?.wouldRestore), [true, true], 'page 0 would be restored, so the file would open');
  t.same(both[0]!.doublewrite.unwritten!.copies.map((c) => [c.slot, c.accepted]), [[70, true]]);
  const only6 = describeTornPages([truth(6), truth(0)], datadir(t, 'valid'), [], 1000, {}, undefined, [copy(6)]);
  t.same(only6.map((p) => p.doublewrite.unwritten?.wouldRestore), [false, undefined], "page 0 has no copy anywhere: page 6's would not help");
  const old = describeTornPages([truth(6)], datadir(t, 'valid'), [], 6000, {}, undefined, [copy(6)]);
  t.same(old[0]!.doublewrite.unwritten, { copies: [{ source: './ibdata1', slot: 70, lsn: 5000, valid: true, accepted: false, why: 'LSN 5000 is older than the checkpoint LSN 6000: recovery ignores it' }], wouldRestore: false });
  t.equal(describeTornPages([truth(6)], datadir(t, 'valid'), [copy(6)], 1000)[0]!.doublewrite.unwritten, undefined, 'none in unwritten extents');
});
