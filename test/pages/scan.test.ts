import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { RigError } from '../../rig/errors.js';
import { scanDatadir } from '../../rig/pages/scan-datadir.js';
import { scanTablespace } from '../../rig/pages/scan-tablespace.js';
import { classifyTablespace, listTablespaceFiles } from '../../rig/pages/tablespace-files.js';
import { loadPage } from '../fixtures/pages/fixture-pages.js';
import { makeTempDir, movedPage, tablespaceBytes, writeMariadbDatadir } from '../fixtures/pages/synthetic-datadir.js';

function overwrite(path: string, at: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);
}

t.test('file kinds by name', async (t) => {
  const cases: [string, boolean, string | null][] = [
    ['ibdata1', true, 'system'], ['ibdata12', true, 'system'], ['undo001', true, 'undo'],
    ['undo_002', true, 'undo'], ['u1.ibu', true, 'undo'], ['t.ibd', false, 'table'],
    ['mysql.ibd', true, 'table'], ['#ib_16384_0.dblwr', true, 'dblwr'], ['ibtmp1', true, null],
    ['ib_logfile0', true, null], ['t.frm', false, null], ['ibdata1', false, null],
  ];
  for (const [name, top, kind] of cases) t.equal(classifyTablespace(name, top), kind, name);
});

t.test('a clean datadir has no invalid page; the doublewrite area is left out', async (t) => {
  const dir = makeTempDir(t, 'pages-scan-');
  writeMariadbDatadir(dir);
  t.same((await listTablespaceFiles(dir)).map((f) => f.rel), ['./ibdata1', './db/t.ibd']);
  const scan = await scanDatadir(dir);
  t.same(scan.invalid, []);
  t.same(scan.doublewriteArea, { blocks: [64, 128], blockPages: 64 });
  t.equal(scan.pages, 206);
  t.equal(scan.files[0]!.skippedPages, 128);
  t.equal(scan.files[1]!.space, 5);
  t.equal(scan.files[1]!.zeroPages, 4);
});

t.test('damage in each file is reported with file, space, page and reason', async (t) => {
  const dir = makeTempDir(t, 'pages-scan-');
  const { ibdata1, tIbd } = writeMariadbDatadir(dir);
  const ps = 16384;
  const older = loadPage('full_crc32-16384-p3'); // torn: first 4 KiB from a different version
  older.fill(0x11, 200, 300);
  overwrite(tIbd, 3 * ps, older.subarray(0, 4096));
  overwrite(tIbd, 0 * ps + 9000, Buffer.from([0xff])); // flipped byte in page 0
  overwrite(tIbd, 4 * ps, loadPage('full_crc32-16384-p3')); // page 3's image at page 4
  overwrite(ibdata1, 7 * ps, Buffer.alloc(ps, 0x33)); // garbage in the system tablespace
  overwrite(ibdata1, 70 * ps, Buffer.alloc(ps, 0x33)); // garbage in the doublewrite area: not live
  const scan = await scanDatadir(dir);
  t.same(scan.invalid.map(({ file, space, page, reason }) => ({ file, space, page, reason })), [
    { file: './ibdata1', space: 0, page: 7, reason: 'checksum-mismatch' },
    { file: './db/t.ibd', space: 5, page: 0, reason: 'checksum-mismatch' },
    { file: './db/t.ibd', space: 5, page: 3, reason: 'checksum-mismatch' },
    { file: './db/t.ibd', space: 5, page: 4, reason: 'page-number-mismatch' },
  ]);
  t.match(scan.invalid[2]!.detail, /full_crc32 stored 0x[0-9a-f]{8}, computed/);
});

t.test('scanTablespace reads page size from page 0 and handles a file of one partial page', async (t) => {
  const dir = makeTempDir(t, 'pages-scan-');
  const path = join(dir, 'small.ibd');
  writeFileSync(path, Buffer.concat([loadPage('full_crc32-4096-p0'), Buffer.alloc(4096), loadPage('full_crc32-4096-p3')]));
  const scan = await scanTablespace(path);
  t.match(scan, { file: './small.ibd', space: 5, format: { pageSize: 4096, fullCrc32: true }, pages: 3, invalid: [] });
  t.ok(readFileSync(path).length === 3 * 4096);
  const empty = join(dir, 'empty.ibd');
  writeFileSync(empty, Buffer.alloc(10));
  t.match(await scanTablespace(empty), { pages: 0, formatAssumed: true });
});

// A tablespace created moments before a cut: MariaDB writes its page 0 when the buffer pool flushes
// it, not when it creates the file, so pages 1, 2, 4... can reach the disk first and page 0 read as
// zeros (seen in bulk tables: pages 1-28 of a file whose page 0 was never written). Flags of 0 decode
// as a legacy 16 KiB format, in which every full_crc32 page fails its LSN check.
t.test('a tablespace whose page 0 holds only zeros is verified in the system tablespace format, as the space its pages name', async (t) => {
  const dir = makeTempDir(t, 'pages-scan-');
  writeMariadbDatadir(dir);
  const ps = 16384;
  const path = join(dir, 'db', 'new.ibd');
  writeFileSync(path, tablespaceBytes(ps, new Map([1, 2, 3].map((n) => [n, movedPage('full_crc32-16384-p3', 32, n, 'full_crc32')])), 8));
  let scan = await scanDatadir(dir);
  t.same(scan.invalid, [], 'its written pages are whole full_crc32 pages');
  t.match(scan.files.find((f) => f.file === './db/new.ibd'), {
    space: 32, format: { fullCrc32: true, pageSize: ps }, formatAssumed: false,
    blankPage0: { formatFrom: 'system tablespace', survey: { analyzed: 8, valid: 3, chosen: 32, matched: 3 } },
  });
  t.equal(scan.files.find((f) => f.file === './db/t.ibd')!.blankPage0, undefined, 'a file with its page 0 has no such note');
  // the checks still bite in such a file: a page of another space, a torn page
  overwrite(path, 4 * ps, movedPage('full_crc32-16384-p3', 33, 4, 'full_crc32'));
  const torn = movedPage('full_crc32-16384-p3', 32, 5, 'full_crc32');
  movedPage('full_crc32-16384-p3', 32, 6, 'full_crc32').copy(torn, 12288, 12288); // last 4 KiB of another version
  overwrite(path, 5 * ps, torn);
  scan = await scanDatadir(dir);
  t.same(scan.invalid.map(({ file, space, page, reason }) => ({ file, space, page, reason })), [
    { file: './db/new.ibd', space: 32, page: 4, reason: 'space-id-mismatch' },
    { file: './db/new.ibd', space: 32, page: 5, reason: 'checksum-mismatch' },
  ]);
});

t.test('a page 0 of zeros takes a legacy system tablespace format too, and alone the default, assumed', async (t) => {
  const dir = makeTempDir(t, 'pages-scan-');
  const ps = 16384;
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'ibdata1'), tablespaceBytes(ps, new Map([[0, movedPage('crc32-16384-p0', 0, 0, 'crc32')]]), 8));
  const path = join(dir, 'db', 'new.ibd');
  writeFileSync(path, tablespaceBytes(ps, new Map([2, 3].map((n) => [n, movedPage('crc32-16384-p3', 9, n, 'crc32')])), 4));
  const scan = await scanDatadir(dir);
  t.same(scan.invalid, []);
  t.match(scan.files[1], { file: './db/new.ibd', space: 9, format: { fullCrc32: false, pageSize: ps }, formatAssumed: false });
  t.match(await scanTablespace(path), { space: null, format: { fullCrc32: true }, formatAssumed: true, blankPage0: { formatFrom: 'assumed', survey: { valid: 0, chosen: null } } });
  t.match(await scanTablespace(path), { invalid: [{ page: 2, reason: 'checksum-mismatch' }, { page: 3, reason: 'checksum-mismatch' }] },
    'an assumed format can be wrong, which is why reconciliation excuses a file whose format was assumed');
});

t.test('a missing datadir is bad input', async (t) => {
  await t.rejects(scanDatadir('/nonexistent/datadir'), RigError);
  await t.rejects(scanDatadir('/nonexistent/datadir'), { code: 'bad-input' });
});
