/** Which doublewrite copies MySQL 8.0.20+ recovery would use (rig/cycle/mysql-doublewrite-rules.ts). */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { judgeDoublewrite } from '../../rig/cycle/doublewrite-rules.js';
import type { DoublewriteCopy } from '../../rig/pages/index.js';
import { parseReducedFile, type ReducedEntry } from '../../rig/pages/reduced-doublewrite.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const copy = (lsn: number, file: number, slot: number, over: Partial<DoublewriteCopy> = {}): DoublewriteCopy => ({
  space: 5, page: 7, lsn, valid: true, source: { file: `./#ib_16384_${file}.dblwr`, slot }, ...over,
});
const judge = (target: Parameters<typeof judgeDoublewrite>[0], copies: DoublewriteCopy[], checkpoint: number | null = 1000, reduced: ReducedEntry[] = []) =>
  judgeDoublewrite(target, copies, checkpoint, { flavor: 'mysql', reduced });
const entry = (lsn: number, page = 7): ReducedEntry => ({ space: 5, page, lsn, source: { file: './#ib_16384_0.bdblwr', slot: 3 } });

t.test('the first copy in load order restores the page, whatever its LSN; later ones are never looked at', async (t) => {
  const e = judge({ space: 5, page: 7 }, [copy(3000, 1, 2), copy(500, 0, 9), copy(2000, 0, 40)]);
  t.ok(e.restorable);
  t.match(e.why, /^restorable from \.\/#ib_16384_0\.dblwr slot 9 \(LSN 500, older than the checkpoint LSN 1000, which MySQL does not check\); 2 later copies are newer and unused$/);
  t.same(e.copies.map((c) => [c.source, c.slot, c.accepted]), [['./#ib_16384_0.dblwr', 9, true], ['./#ib_16384_0.dblwr', 40, false], ['./#ib_16384_1.dblwr', 2, false]]);
  t.match(e.copies[1]!.why, /meets \.\/#ib_16384_0\.dblwr slot 9 first/);
});

t.test('an invalid first copy stops the server; a valid later one does not help', async (t) => {
  const e = judge({ space: 5, page: 7 }, [copy(900, 0, 3, { valid: false, reason: 'lsn-mismatch' }), copy(2000, 1, 0)]);
  t.notOk(e.restorable);
  t.match(e.why, /first copy recovery meets \(\.\/#ib_16384_0\.dblwr slot 3\) is not a valid page image \(lsn-mismatch\): the server stops/);
});

t.test('copies in ibdata1 (the old area MySQL still creates) are not read', async (t) => {
  const e = judge({ space: 5, page: 7 }, [copy(2000, 0, 0, { source: { file: './ibdata1', slot: 70 } })]);
  t.notOk(e.restorable);
  t.equal(e.why, 'no copy of this page in the doublewrite files');
});

t.test('page 0: the newest copy, through the survey or as space 0; none without a survey choice', async (t) => {
  const zero = [copy(1200, 0, 1, { page: 0 }), copy(1800, 1, 5, { page: 0 })];
  const found = judge({ space: 5, page: 0, page0Path: 'survey' }, zero);
  t.ok(found.restorable);
  t.match(found.why, /^restorable from \.\/#ib_16384_1\.dblwr slot 5 \(LSN 1800, the newest copy; found through the 64-page survey\)$/);
  t.same(found.copies.map((c) => c.accepted), [false, true]);
  t.ok(judge({ space: 0, page: 0, page0Path: 'system' }, [copy(10, 0, 1, { space: 0, page: 0 })]).restorable, 'no checkpoint test for page 0 either');
  t.match(judge({ space: 5, page: 0, page0Path: 'none' }, zero).why, /survey of the first 64 pages does not choose/);
  const badNewest = judge({ space: 5, page: 0, page0Path: 'survey' }, [copy(1200, 0, 1, { page: 0 }), copy(1800, 1, 5, { page: 0, valid: false, reason: 'checksum-mismatch' })]);
  t.notOk(badNewest.restorable, 'the newest is taken unverified: a torn newest copy restores nothing');
  t.match(badNewest.why, /takes the newest copy .* not a valid page image \(checksum-mismatch\)/);
});

t.test('a file whose page 0 has no copy stops recovery: none of its pages is restored', async (t) => {
  t.notOk(judge({ space: 5, page: 7, fileOpens: false }, [copy(2000, 0, 0)]).restorable);
  t.match(judge({ space: null, page: 7 }, [copy(2000, 0, 0)]).why, /tablespace id is unknown/);
  t.equal(judge({ space: 5, page: 0, page0Path: 'survey' }, []).why, 'no copy of page 0 in the doublewrite files');
});

t.test("ibdata1's TRX_SYS page is read before recovery, so its copy is never used", async (t) => {
  const e = judge({ space: 0, page: 5 }, [copy(2000, 0, 38, { space: 0, page: 5 })]);
  t.notOk(e.restorable);
  t.match(e.why, /reads the TRX_SYS page at startup, before recovery reads the doublewrite files.*#ib_16384_0\.dblwr slot 38 is never used/);
  t.same(e.copies.map((c) => c.accepted), [false]);
  t.ok(judge({ space: 0, page: 6 }, [copy(2000, 0, 38, { space: 0, page: 6 })]).restorable, 'the next page of ibdata1 comes back');
  t.ok(judge({ space: 5, page: 5 }, [copy(2000, 0, 38, { page: 5 })]).restorable, 'page 5 of a table comes back');
});

t.test('DETECT_ONLY: the reduced file vetoes a copy older than the LSN it names, and names pages no copy restores', async (t) => {
  const stale = judge({ space: 5, page: 7 }, [copy(900, 0, 3)], 1000, [entry(800), entry(1500)]);
  t.notOk(stale.restorable);
  t.equal(stale.reducedLsn, 1500, 'the newest entry counts');
  t.match(stale.why, /names the page at LSN 1500, newer than the copy recovery would write \(LSN 900\): the server stops/);
  t.notOk(stale.copies[0]!.accepted);
  t.ok(judge({ space: 5, page: 7 }, [copy(1500, 0, 3)], 1000, [entry(1500)]).restorable, 'a copy as new as the entry is written');
  t.match(judge({ space: 5, page: 7 }, [], 1000, [entry(1500)]).why, /names the page \(LSN 1500\) and no copy restores it: the server stops/);
  t.match(judge({ space: 5, page: 7 }, [copy(2000, 0, 1, { valid: false, reason: 'checksum-mismatch' })], 1000, [entry(1500)]).why, /first copy recovery meets .* not a valid page image/, 'an invalid copy stops it first');
  t.equal(judge({ space: 5, page: 7 }, [copy(900, 0, 3)]).reducedLsn, undefined);
});

t.test('the .bdblwr of a 9.7.4 crash image: two batch pages of entries, the stale page that stopped recovery among them', async (t) => {
  const bytes = readFileSync(fixtureFile('pages', 'mysql-9.7-ib_16384_0.bdblwr'));
  const { entries, corrupt } = parseReducedFile(bytes, './#ib_16384_0.bdblwr');
  t.equal(corrupt, 0);
  t.equal(entries.length, 122 + 128);
  t.same(entries.filter((e) => e.space === 6 && e.page === 41), [{ space: 6, page: 41, lsn: 35278430, source: { file: './#ib_16384_0.bdblwr', slot: 3 } }]);
  const damaged = Buffer.from(bytes);
  damaged.writeUInt8(damaged.readUInt8(3 * 8192 + 40) ^ 1, 3 * 8192 + 40);
  t.equal(parseReducedFile(damaged, 'x').corrupt, 1, 'a batch page whose checksum fails');
});
