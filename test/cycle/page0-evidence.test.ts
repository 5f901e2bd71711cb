/**
 * The page-0 record (rig/cycle/page0-evidence.ts): the server's log lines about a file's first page,
 * read from real MariaDB 10.11.19 and MySQL 9.7.4 logs, MySQL's lookup, whether MariaDB's redo after
 * the checkpoint changes the page's size or flags, and the finding when a copy the rules accept
 * stays unused, with what it says of that redo.
 */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describePage0, page0Finding, page0LogLines, redoHeaderOf } from '../../rig/cycle/page0-evidence.js';
import type { RedoFileOps } from '../../rig/pages/redo-file-ops.js';
import type { TornPage } from '../../rig/results/types.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const FIXTURES = fixtureFile('mariadb-10.11-error-logs');
const log = readFileSync(join(FIXTURES, 'dw-on-4k-page0-torn-started.log'), 'utf8');

const torn = (over: Partial<TornPage> = {}): TornPage => ({
  file: './sbtest/sbtest2.ibd', space: 8, page: 0, unitsNew: [true, false, false, false], writes: 1, durableLsn: 10, newestLsn: 20,
  invalidBefore: 'checksum-mismatch', validAfter: false, lsnAfter: 20, currentAfter: null, attribution: null,
  doublewrite: { checkpointLsn: 15, copies: [], restorable: true, why: 'restorable from ./ibdata1 slot 91 (LSN 20)' },
  page0: { path: 'header', headerSpaceId: 8, firstPages: [], serverLog: [], finding: null },
  ...over,
});

t.test("the server's lines about the file's first page, each once with its count", async (t) => {
  const lines = page0LogLines(log, { file: './sbtest/sbtest2.ibd', space: 8 });
  t.same(lines, ['[ERROR] InnoDB: The first page of file ./sbtest/sbtest2.ibd is corrupted (x25)']);
  t.same(page0LogLines(log, { file: './sbtest/sbtest1.ibd', space: 7 }), [], 'another file has none');
  const restored = '2026-11-30 13:25:13 0 [Note] InnoDB: Recovered page [page id: space=9, page number=0] to \'./sbtest/sbtest3.ibd\' from the doublewrite buffer.';
  t.same(page0LogLines(restored, { file: './sbtest/sbtest3.ibd', space: 9 }), [restored.slice(22)], 'matched by space id and page number');
});

t.test('a finding only when an accepted, findable copy left page 0 invalid and in use', async (t) => {
  t.match(page0Finding(torn()), /page 0 of \.\/sbtest\/sbtest2\.ibd had a doublewrite copy the server's rules accept .*found through the space id in the torn page's own header\), yet the server did not restore it/);
  t.equal(page0Finding(torn({ validAfter: true })), null, 'restored');
  t.equal(page0Finding(torn({ validAfter: null })), null, 'not scanned after recovery (the server did not start)');
  t.equal(page0Finding(torn({ freedAfter: true })), null, 'the file was dropped or the page freed');
  t.equal(page0Finding(torn({ doublewrite: { checkpointLsn: 15, copies: [], restorable: false, why: 'no copy' } })), null, 'no accepted copy');
  t.equal(page0Finding(torn({ page0: { path: 'system', headerSpaceId: 0, firstPages: [], serverLog: [], finding: null } })), null, 'ibdata1 has its own path');
  t.equal(page0Finding(torn({ page: 3, page0: undefined })), null, 'not page 0');
});

t.test("the finding says whether the redo after the checkpoint changes page 0's size or flags, when the record knows", async (t) => {
  const page0 = torn().page0!;
  t.match(page0Finding(torn({ page0: { ...page0, redoHeader: { size: true, flags: false, lsn: 30 } } })),
    /yet the server did not restore it; the redo log after the checkpoint changes its size or flags \(MariaDB then reads the copy\)$/);
  t.match(page0Finding(torn({ page0: { ...page0, redoHeader: null } })), /yet the server did not restore it; no redo after the checkpoint changes its size or flags$/);
  t.match(page0Finding(torn()), /yet the server did not restore it$/, 'not known (MySQL, an older record): nothing said');
});

t.test("the redo's page-0 header writes, by tablespace", async (t) => {
  const redo: RedoFileOps = {
    from: 10, to: 900, ops: [],
    page0Headers: [
      { lsn: 100, space: 8, size: 4, flags: null },
      { lsn: 100, space: 8, size: null, flags: 0x15 },
      { lsn: 200, space: 9, size: 7, flags: null },
      { lsn: 300, space: 8, size: 5, flags: null },
    ],
  };
  t.same(redoHeaderOf(redo, 8), { size: true, flags: true, lsn: 100 }, 'created after the checkpoint: size and flags, from the first write');
  t.same(redoHeaderOf(redo, 9), { size: true, flags: false, lsn: 200 }, 'grown: its size only');
  t.equal(redoHeaderOf(redo, 10), null, 'the log was read and holds none for it');
  t.equal(redoHeaderOf(redo, null), undefined, 'no known tablespace');
  t.equal(redoHeaderOf(redo, 0), undefined, "the system tablespace: the parse leaves its writes out");
  t.equal(redoHeaderOf(null, 8), undefined, 'no 10.8+ log read (MySQL, an older MariaDB)');
  t.equal(redoHeaderOf({ from: 10, to: 900, ops: [] }, 8), undefined, 'a record from before the rig read page-0 writes');
});

t.test("MySQL 9.7: the lines about a torn page 0 it restored, timestamps dropped, the survey's choice included", async (t) => {
  const mysql = readFileSync(fixtureFile('mysql-9.7-error-logs', 'dw-on-4k-restored-page0.log'), 'utf8');
  t.same(page0LogLines(mysql, { file: './sbtest/sbtest1.ibd', space: 4 }), [
    '[ERROR] [MY-012224] [InnoDB] Checksum mismatch in datafile: ./sbtest/sbtest1.ibd, Space ID:4, Flags: 16417. Please refer to http://dev.mysql.com/doc/refman/9.7/en/innodb-troubleshooting-datadict.html for how to resolve the issue.',
    '[Note] [MY-012236] [InnoDB] Chosen space:4',
    "[Note] [MY-012238] [InnoDB] Restoring page [page id: space=4, page number=0] of datafile './sbtest/sbtest1.ibd' from the doublewrite buffer. Writing 16384 bytes into file './sbtest/sbtest1.ibd'",
  ]);
  const refused = readFileSync(fixtureFile('mysql-9.7-error-logs', 'dw-off-4k-refused-page0.log'), 'utf8');
  t.match(page0LogLines(refused, { file: './sbtest/sbtest1.ibd', space: 4 }), [
    /Checksum mismatch in datafile: \.\/sbtest\/sbtest1\.ibd/, // the line inside a page dump
    /Chosen space:4$/,
    /Corrupted page \[page id: space=4, page number=0\] of datafile '\.\/sbtest\/sbtest1\.ibd' could not be found in the doublewrite buffer\.$/,
  ]);
});

t.test('MySQL: the lookup is the survey of the first 64 pages; page 0 of space 0 is the system tablespace', async (t) => {
  const dir = t.testdir({ db: {} });
  const real = readFileSync(fixtureFile('pages', 'mysql-9.7-sbtest1-p0-5.ibd'));
  const torn = Buffer.from(real);
  torn.fill(0xa5, 12288, 16384 - 8);
  writeFileSync(join(dir, 'db', 't.ibd'), torn);
  const invalid = new Set(['./db/t.ibd#0']);
  const found = describePage0(dir, './db/t.ibd', 4, 16384, invalid, 'mysql');
  t.same(found, {
    path: 'survey', headerSpaceId: 4,
    firstPages: [{ page: 1, state: 'valid' }, { page: 2, state: 'valid' }, { page: 3, state: 'valid' }],
    survey: { analyzed: 6, valid: 5, chosen: 4, matched: 5 },
  });
  t.equal(describePage0(dir, './db/t.ibd', 9, 16384, invalid, 'mysql').path, 'none', 'the survey names another space');
  t.equal(describePage0(dir, './db/t.ibd', 0, 16384, invalid, 'mysql').path, 'system');
});
