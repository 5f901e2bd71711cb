/**
 * A torn page 0's evidence carries, by its tablespace's id, whether MariaDB's redo log after the
 * checkpoint changes the page's size or flags (rig/cycle/torn-pages.ts with the redo that
 * rig/cycle/stages/scan.ts reads), and nothing when no such log was read.
 */
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageTruth } from '../../rig/cycle/page-truth.js';
import { describeTornPages } from '../../rig/cycle/torn-pages.js';
import type { DatadirScan, DoublewriteCopy } from '../../rig/pages/index.js';
import type { RedoFileOps } from '../../rig/pages/redo-file-ops.js';
import { makeTempDir, movedPage, tablespaceBytes } from '../fixtures/pages/synthetic-datadir.js';

const PS = 16384;
const truth = (page: number): PageTruth => ({
  file: './db/t.ibd', page, class: 'torn', writeSeqs: [4], unitsNew: [true, false, false, false], durableLsn: 10, newestLsn: 20,
});
const copy = (page: number): DoublewriteCopy => ({ space: 5, page, lsn: 5000, valid: true, source: { file: './ibdata1', slot: 64 + page } });

/** A datadir holding ./db/t.ibd of space 5, with valid pages 1-3 and pages 0 and 6 invalid. */
function datadir(t: Parameters<typeof makeTempDir>[0]): DatadirScan {
  const dir = makeTempDir(t, 'rig-torn-redo-');
  mkdirSync(join(dir, 'db'));
  const pages = new Map([1, 2, 3].map((n) => [n, movedPage('full_crc32-16384-p3', 5, n, 'full_crc32')] as const));
  writeFileSync(join(dir, 'db', 't.ibd'), tablespaceBytes(PS, pages, 8));
  return {
    datadir: dir, pages: 8, doublewriteArea: null, elapsedMs: 1,
    files: [{ file: './db/t.ibd', space: 5, format: { fullCrc32: true, pageSize: PS, zipSize: 0 }, formatAssumed: false, pages: 8, zeroPages: 0, skippedPages: 0, invalid: [] }],
    invalid: [0, 6].map((page) => ({ file: './db/t.ibd', space: 5, page, reason: 'checksum-mismatch' as const, detail: 'stored 1, computed 2' })),
  };
}

const redo = (spaces: number[]): RedoFileOps => ({
  from: 900, to: 2000, ops: [],
  page0Headers: spaces.map((space, i) => ({ lsn: 1000 + i, space, size: 4 + i, flags: null })),
});

t.test("a torn page 0 gets the redo's page-0 header writes of its own tablespace", async (t) => {
  const scan = datadir(t);
  const describe = (log: RedoFileOps | null) => describeTornPages([truth(0), truth(6)], scan, [copy(0), copy(6)], 1000, {}, undefined, [], log);
  const [page0, page6] = describe(redo([9, 5, 5]));
  t.same(page0!.page0!.redoHeader, { size: true, flags: false, lsn: 1001 }, 'space 5, from its first write');
  t.equal(page6!.page0, undefined, 'only page 0 carries page-0 evidence');
  t.equal(describe(redo([9])).at(0)!.page0!.redoHeader, null, 'the log holds writes for other tablespaces only');
  t.notOk('redoHeader' in describe(null).at(0)!.page0!, 'no log read: not known');
  const mysql = describeTornPages([truth(0)], scan, [copy(0)], 1000, {}, { flavor: 'mysql', reduced: [] }, [], redo([5]));
  t.notOk('redoHeader' in mysql[0]!.page0!, 'MySQL: not known');
});
