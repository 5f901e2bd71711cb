import t from 'tap';
import { describeExercised, exercisedDoublewrite, straddles } from '../../rig/results/exercised.js';
import type { PendingWrite } from '../../faults/crash-plan.js';
import type { TornPage } from '../../rig/results/types.js';

const page = (over: Partial<TornPage> = {}): TornPage => ({
  file: './db/t.ibd', space: 5, page: 7, unitsNew: [true, false, false, false], writes: 1, durableLsn: 100, newestLsn: 200,
  invalidBefore: 'checksum-mismatch', validAfter: true, lsnAfter: 250, currentAfter: true, attribution: 'doublewrite',
  doublewrite: { checkpointLsn: 90, copies: [], restorable: true, why: 'restorable' }, ...over,
});
const noCopy = { checkpointLsn: 90, copies: [], restorable: false, why: 'no copy' };
const write = (offset: number, length: number): PendingWrite => ({ seq: offset, offset, length, fate: 'dropped', units: 1, unitsLanded: [] });

t.test('torn pages split into doublewrite-restorable, redo-only and freed', async (t) => {
  const e = describeExercised(
    [
      page(),
      page({ page: 8, doublewrite: noCopy, attribution: 'redo' }),
      page({ page: 9, freedAfter: true, validAfter: false, attribution: null }),
      page({ page: 10, freedBefore: true }), // restorable, but it held no data
    ],
    [],
    16384,
    4096,
  );
  t.same(e, { tornDoublewrite: 1, tornRedo: 1, tornFreed: 2, pageWritesInFlight: 0, pageWritesInFlightStraddling: 0 });
  t.equal(exercisedDoublewrite(e), true);
  t.equal(exercisedDoublewrite({ ...e, tornDoublewrite: 0 }), false);
  t.equal(exercisedDoublewrite(null), false);
});

t.test('page-size writes in flight, and those that crossed a unit boundary', async (t) => {
  const pending = [write(0, 16384), write(16384 + 4096, 16384), write(512, 16384), write(0, 4096), write(65536, 32768)];
  t.same(describeExercised([], pending, 16384, 16384), {
    tornDoublewrite: 0, tornRedo: 0, tornFreed: 0, pageWritesInFlight: 3, pageWritesInFlightStraddling: 2,
  });
  t.equal(describeExercised([], pending, 16384, 4096).pageWritesInFlightStraddling, 0, 'a page spans several 4k units by design: no straddle');
});

t.test('straddles follows the helper: a write no longer than the unit that spans two', async (t) => {
  t.equal(straddles(0, 16384, 16384), false);
  t.equal(straddles(4096, 16384, 16384), true);
  t.equal(straddles(16384 - 512, 1024, 16384), true);
  t.equal(straddles(4096, 16384, 4096), false);
});
