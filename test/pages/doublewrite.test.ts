import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { extentPages, inDoublewriteArea, readDoublewriteArea } from '../../rig/pages/doublewrite-area.js';
import { dblwrFilePageSize } from '../../rig/pages/doublewrite-copies.js';
import { readDoublewrite } from '../../rig/pages/read-doublewrite.js';
import { scanDatadir } from '../../rig/pages/scan-datadir.js';
import { loadPage, writeU32 } from '../fixtures/pages/fixture-pages.js';
import { makeTempDir, movedPage, tablespaceBytes, writeMariadbDatadir } from '../fixtures/pages/synthetic-datadir.js';

t.test('the TRX_SYS page names the two doublewrite blocks, one extent each', async (t) => {
  const want: [number, [number, number], number][] = [[4096, [256, 512], 256], [16384, [64, 128], 64], [65536, [64, 128], 64]];
  for (const [ps, blocks, blockPages] of want) {
    t.same(readDoublewriteArea(loadPage(`ibdata1-${ps}-p5`)), { blocks, blockPages }, `${ps}`);
  }
  t.equal(extentPages(8192), 128);
  t.equal(extentPages(32768), 64);
});

t.test('the repeated header serves when the first copy is damaged; no magic means no area', async (t) => {
  const page = loadPage('ibdata1-16384-p5');
  writeU32(page, page.length - 190, 0); // first magic gone
  t.same(readDoublewriteArea(page), { blocks: [64, 128], blockPages: 64 });
  writeU32(page, page.length - 178, 0); // repeat gone too
  t.equal(readDoublewriteArea(page), null);
  const area = { blocks: [64, 128] as [number, number], blockPages: 64 };
  t.same([63, 64, 127, 128, 191, 192].map((n) => inDoublewriteArea(area, n)), [false, true, true, true, true, false]);
  t.equal(inDoublewriteArea(null, 64), false);
});

t.test('MariaDB: copies in ibdata1 name the page they copy and say whether it is whole', async (t) => {
  const dir = makeTempDir(t, 'pages-dblwr-');
  writeMariadbDatadir(dir);
  const copies = await readDoublewrite(dir);
  t.same(copies.map(({ space, page, valid, source }) => ({ space, page, valid, slot: source.slot })), [
    { space: 5, page: 3, valid: true, slot: 64 },
    { space: 5, page: 0, valid: true, slot: 65 },
  ]);
  t.ok(copies.every((c) => c.lsn > 0 && c.source.file === './ibdata1'));
});

t.test('a tablespace whose page 0 holds only zeros names no format: the system tablespace keeps its own for its copies', async (t) => {
  const dir = makeTempDir(t, 'pages-dblwr-');
  const { ibdata1 } = writeMariadbDatadir(dir);
  const copy = movedPage('full_crc32-16384-p3', 0, 7, 'full_crc32'); // a copy of ibdata1's page 7
  const bytes = readFileSync(ibdata1);
  copy.copy(bytes, 66 * 16384);
  writeFileSync(ibdata1, bytes);
  // listed after ibdata1; its page 0 once read as space 0 in a legacy format, and so judged ibdata1's copies
  writeFileSync(join(dir, 'db', 'new.ibd'), tablespaceBytes(16384, new Map([[1, movedPage('full_crc32-16384-p3', 32, 1, 'full_crc32')]]), 4));
  const copies = await readDoublewrite(dir);
  t.same(copies.map(({ space, page, valid }) => ({ space, page, valid })), [
    { space: 5, page: 3, valid: true },
    { space: 5, page: 0, valid: true },
    { space: 0, page: 7, valid: true },
  ]);
});

// MySQL 8.0.20+ cannot run on this machine: these doublewrite files are synthetic, built from
// the format MySQL's buf0dblwr.cc reads (a plain run of page images, zero slots empty, the page
// size in the file name), filled with real MariaDB pages in the legacy crc32 format MySQL uses.
t.test('MySQL: #ib_<pagesize>_<n>.dblwr files (synthetic) are read as copies, not live pages', async (t) => {
  const dir = makeTempDir(t, 'pages-mysql-dblwr-');
  mkdirSync(join(dir, 'db'));
  const ps = 16384;
  writeFileSync(join(dir, 'db', 'legacy.ibd'), tablespaceBytes(ps, new Map([
    [0, loadPage('crc32-16384-p0')], [3, loadPage('crc32-16384-p3')],
  ]), 4));
  const torn = loadPage('crc32-16384-p3');
  torn.fill(0, 8192); // the second half never reached the doublewrite file
  writeFileSync(join(dir, '#ib_16384_0.dblwr'), tablespaceBytes(ps, new Map([
    [0, loadPage('crc32-16384-p3')], [2, torn], [3, movedPage('crc32-16384-p3', 6, 9, 'crc32')],
  ]), 4));
  writeFileSync(join(dir, '#ib_16384_1.dblwr'), Buffer.alloc(0));
  const copies = await readDoublewrite(dir);
  t.same(copies.map(({ space, page, valid, reason, source }) => ({ space, page, valid, reason, ...source })), [
    { space: 6, page: 3, valid: true, reason: undefined, file: './#ib_16384_0.dblwr', slot: 0 },
    { space: 6, page: 3, valid: false, reason: 'lsn-mismatch', file: './#ib_16384_0.dblwr', slot: 2 },
    { space: 6, page: 9, valid: true, reason: undefined, file: './#ib_16384_0.dblwr', slot: 3 },
  ]);
  const scan = await scanDatadir(dir);
  t.same(scan.files.map((f) => f.file), ['./db/legacy.ibd']);
  t.same(scan.invalid, []);
  t.equal(dblwrFilePageSize('/x/#ib_4096_3.dblwr'), 4096);
  t.equal(dblwrFilePageSize('/x/ibdata1'), null);
});

t.test('a copy of a space the datadir does not have is judged by either format', async (t) => {
  const dir = makeTempDir(t, 'pages-dblwr-');
  writeFileSync(join(dir, '#ib_4096_0.dblwr'), Buffer.concat([loadPage('full_crc32-4096-p3'), loadPage('crc32-4096-p3')]));
  t.same((await readDoublewrite(dir)).map((c) => [c.space, c.valid]), [[5, true], [6, true]]);
});
