/** The pre-recovery scan held against the truth from content (rig/cycle/reconcile.ts). */
import t from 'tap';
import type { PageTruth } from '../../rig/cycle/page-truth.js';
import { describeMismatch, reconcileScan } from '../../rig/cycle/reconcile.js';
import type { DatadirScan } from '../../rig/pages/index.js';
import type { TablespaceScan } from '../../rig/pages/scan-tablespace.js';

const truth = (page: number, cls: PageTruth['class'], file = './db/t.ibd'): PageTruth => ({
  file, page, class: cls, writeSeqs: [1], unitsNew: [true, false], durableLsn: 1, newestLsn: 2,
});
const fileScan = (file: string, over: Partial<TablespaceScan> = {}): TablespaceScan => ({
  file, space: 5, format: { fullCrc32: true, pageSize: 16384, zipSize: 0 }, formatAssumed: false,
  pages: 64, zeroPages: 0, skippedPages: 0, invalid: [], ...over,
});
function scan(invalid: Array<[string, number]>, files = [fileScan('./db/t.ibd')]): DatadirScan {
  return {
    datadir: '/d', files, pages: 64, doublewriteArea: null, elapsedMs: 1,
    invalid: invalid.map(([file, page]) => ({ file, space: 5, page, reason: 'checksum-mismatch' as const, detail: 'x' })),
  };
}

t.test('the same pages on both sides: reconciled', async (t) => {
  const r = reconcileScan([truth(3, 'torn'), truth(4, 'whole'), truth(5, 'unwritten')], scan([['./db/t.ibd', 3]]));
  t.same(r, { ok: true, invalidNotTorn: [], tornButValid: [], explained: [] });
});

t.test('an invalid page the truth did not tear, and a torn page that verifies: both listed, not ok', async (t) => {
  const r = reconcileScan([truth(3, 'torn'), truth(4, 'whole')], scan([['./db/t.ibd', 4]]));
  t.notOk(r.ok);
  t.same(r.invalidNotTorn, ['./db/t.ibd page 4: checksum-mismatch']);
  t.same(r.tornButValid, ['./db/t.ibd page 3']);
  t.match(describeMismatch(r), /1 invalid but not torn by the disk's record: \.\/db\/t\.ibd page 4.*1 torn by the disk's record but valid to the verifier: \.\/db\/t\.ibd page 3/);
});

t.test('differences the record explains are listed apart and do not fail', async (t) => {
  const files = [fileScan('./db/t.ibd', { formatAssumed: true }), fileScan('./db/z.ibd', { unverified: 'ROW_FORMAT=COMPRESSED pages are not verified' })];
  const r = reconcileScan([truth(3, 'torn', './db/z.ibd')], scan([['./db/t.ibd', 9]], files));
  t.ok(r.ok);
  t.equal(r.explained.length, 2);
  t.match(r.explained[0], /page format was assumed/);
  t.match(r.explained[1], /not verified/);
});

t.test('a long mismatch is shortened in the one-line reason, kept whole in the lists', async (t) => {
  const r = reconcileScan(Array.from({ length: 9 }, (_, i) => truth(i, 'torn')), scan([]));
  t.equal(r.tornButValid.length, 9);
  t.match(describeMismatch(r), /\.\.\. \(9\)/);
});

t.test('a file whose page 0 held only zeros is listed with the format and space it was verified as; it excuses nothing', async (t) => {
  const blank = fileScan('./db/new.ibd', {
    space: 32, blankPage0: { formatFrom: 'system tablespace', survey: { analyzed: 64, valid: 27, chosen: 32, matched: 27 } },
  });
  const none = fileScan('./db/empty.ibd', {
    space: null, blankPage0: { formatFrom: 'system tablespace', survey: { analyzed: 64, valid: 0, chosen: null, matched: 0 } },
  });
  const r = reconcileScan([truth(3, 'torn', './db/new.ibd')], scan([['./db/new.ibd', 3], ['./db/new.ibd', 5]], [fileScan('./db/t.ibd'), blank, none]));
  t.notOk(r.ok, 'an invalid page the truth did not tear in such a file is still a disagreement');
  t.same(r.invalidNotTorn, ['./db/new.ibd page 5: checksum-mismatch']);
  t.same(r.blankPage0, [
    "./db/new.ibd: page 0 all zeros; verified as full_crc32 16 KiB (the system tablespace's format), space 32, named by 27 of the 27 valid pages of 64 surveyed",
    "./db/empty.ibd: page 0 all zeros; verified as full_crc32 16 KiB (the system tablespace's format), no space id (0 of 64 pages surveyed verify and name one), so space ids unchecked",
  ]);
});
