import t from 'tap';
import { pageZeroWrites } from '../../rig/cycle/page-zero.js';
import type { PageTruth } from '../../rig/cycle/page-truth.js';
import { ibdPageZeroWrites, lifecyclePageZeroWrites } from '../../rig/results/page-zero.js';
import { summarizeScenario } from '../../rig/results/summarize.js';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import { cycleRecord } from '../fixtures/cycle-record.js';

const truth = (file: string, page: number, writes: number, cls: PageTruth['class']): PageTruth => ({
  file, page, class: cls, writeSeqs: Array.from({ length: writes }, (_, i) => i + 1), unitsNew: [true], durableLsn: null, newestLsn: null,
});

t.test('page 0 of each tablespace the pending writes touched, and the count on .ibd files', async (t) => {
  const zero = pageZeroWrites([
    truth('./sbtest/parts_c1#P#p2.ibd', 0, 2, 'torn'),
    truth('./sbtest/sbtest1.ibd', 7, 3, 'whole'),
    truth('./ibdata1', 0, 1, 'whole'),
    truth('./ibdata1', 0, 4, 'doublewrite-area'), // a copy, not the page itself (never page 0 in practice)
    truth('./sbtest/churn_c2_t1.ibd', 0, 1, 'unwritten'),
  ]);
  t.same(zero, [
    { file: './ibdata1', writes: 1, class: 'whole' },
    { file: './sbtest/churn_c2_t1.ibd', writes: 1, class: 'unwritten' },
    { file: './sbtest/parts_c1#P#p2.ibd', writes: 2, class: 'torn' },
  ]);
  t.equal(ibdPageZeroWrites({ pageZeroWrites: zero }), 3, 'ibdata1 is not an .ibd');
  t.equal(ibdPageZeroWrites({}), 0, 'an older record has none');
  t.equal(lifecyclePageZeroWrites({ pageZeroWrites: zero }), 3, 'churn and partition tables are the lifecycle kinds\'');
  const names = ['./sbtest/alter_c2.ibd', './sbtest/bulk_c12.ibd', './sbtest/ptrunc_c1#P#p3.ibd', './sbtest/bait_c4.ibd', './sbtest/parts_c2#p#p1.ibd', './sbtest/sbtest1.ibd', './sbtest/rig_ledger.ibd'];
  t.equal(lifecyclePageZeroWrites({ pageZeroWrites: names.map((file) => ({ file, writes: 1, class: 'whole' as const })) }), 5, "not sbtest1 or the ledger; MySQL's #p# partitions too");
});

t.test('a scenario counts the cycles whose cut had a write pending on page 0 of an .ibd', async (t) => {
  const settings = { name: 's', runtime: 'local' as const, server: DEFAULT_SERVER, disk: DEFAULT_DISK, load: DEFAULT_LOAD, expect: 'recovers' as const };
  const records = [1, 2, 3].map((cycle) => cycleRecord({ id: `s-${cycle}`, scenario: 's', cycle, seed: cycle }, settings, 'no-torn', 0));
  records[0]!.pageZeroWrites = [{ file: './sbtest/bulk_c1.ibd', writes: 1, class: 'whole' }];
  records[1]!.pageZeroWrites = [{ file: './ibdata1', writes: 2, class: 'whole' }];
  records[2]!.pageZeroWrites = [{ file: './sbtest/sbtest3.ibd', writes: 1, class: 'torn' }];
  const summary = summarizeScenario({ settings, cyclesPlanned: 3 }, records);
  t.same([summary.pageZeroCycles, summary.lifecyclePageZeroCycles], [2, 1]);
});
