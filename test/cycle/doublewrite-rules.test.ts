/** Which doublewrite copies MariaDB 10.11's recovery would use (rig/cycle/doublewrite-rules.ts). */
import t from 'tap';
import { judgeDoublewrite } from '../../rig/cycle/doublewrite-rules.js';
import type { DoublewriteCopy } from '../../rig/pages/index.js';

const copy = (lsn: number, over: Partial<DoublewriteCopy> = {}): DoublewriteCopy => ({
  space: 5, page: 7, lsn, valid: true, source: { file: './ibdata1', slot: 70 }, ...over,
});

t.test('a valid copy at or after the checkpoint is accepted; the newest of several wins', async (t) => {
  const e = judgeDoublewrite({ space: 5, page: 7 }, [copy(1000), copy(1500, { source: { file: './ibdata1', slot: 71 } })], 1000);
  t.ok(e.restorable);
  t.match(e.why, /slot 71 \(LSN 1500\)/);
  t.same(e.copies.map((c) => c.accepted), [true, true]);
  t.equal(e.checkpointLsn, 1000);
});

t.test('copies the server ignores: older than the checkpoint, invalid, another page', async (t) => {
  const e = judgeDoublewrite({ space: 5, page: 7 }, [copy(900), copy(2000, { valid: false, reason: 'checksum-mismatch' }), copy(3000, { page: 8 })], 1000);
  t.notOk(e.restorable);
  t.equal(e.copies.length, 2, 'only copies of this page are listed');
  t.match(e.copies[0]!.why, /older than the checkpoint LSN 1000/);
  t.match(e.copies[1]!.why, /not a valid page image \(checksum-mismatch\)/);
  t.match(e.why, /no copy the server accepts/);
});

t.test('no copy, or no space id to match one', async (t) => {
  t.match(judgeDoublewrite({ space: 5, page: 7 }, [], 10).why, /no copy of this page/);
  t.match(judgeDoublewrite({ space: null, page: 7 }, [copy(50)], 10).why, /tablespace id is unknown/);
});

t.test("page 0's copy is found by its header's space id or through pages 1-3; with neither it is not", async (t) => {
  const zero = [copy(2000, { page: 0 })];
  t.ok(judgeDoublewrite({ space: 5, page: 0, page0Path: 'header' }, zero, 1000).restorable);
  t.ok(judgeDoublewrite({ space: 5, page: 0, page0Path: 'pages-1-3' }, zero, 1000).restorable);
  t.ok(judgeDoublewrite({ space: 0, page: 0, page0Path: 'system' }, [copy(2000, { space: 0, page: 0 })], 1000).restorable);
  const none = judgeDoublewrite({ space: 5, page: 0, page0Path: 'none' }, zero, 1000);
  t.notOk(none.restorable);
  t.match(none.why, /cannot match a copy to the file/);
  t.notOk(judgeDoublewrite({ space: 5, page: 0, page0Path: 'header' }, [copy(900, { page: 0 })], 1000).restorable, 'a copy older than the checkpoint still restores nothing');
});

t.test('an unknown checkpoint accepts valid copies and says so', async (t) => {
  const e = judgeDoublewrite({ space: 5, page: 7 }, [copy(5)], null);
  t.ok(e.restorable);
  t.match(e.copies[0]!.why, /checkpoint unknown/);
});

t.test('a file whose page 0 cannot be restored restores none of its pages', async (t) => {
  const e = judgeDoublewrite({ space: 5, page: 7, fileOpens: false }, [copy(2000)], 1000);
  t.notOk(e.restorable);
  t.match(e.why, /does not open the file/);
  t.ok(judgeDoublewrite({ space: 5, page: 7, fileOpens: true }, [copy(2000)], 1000).restorable);
});
