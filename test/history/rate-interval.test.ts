// Hit rates with their 95% Wilson intervals: the published values, bounds kept inside 0..1, and
// "moved" only when each run's rate lies outside the other's interval.
import t from 'tap';
import { rateMoved, rateOf, showRate } from '../../rig/history/rate-interval.js';

const near = (x: number, want: number) => Math.abs(x - want) < 5e-4;

t.test('the Wilson interval at the counts a scenario has', async (t) => {
  for (const [hits, of, low, high] of [
    [0, 10, 0, 0.2775],
    [5, 10, 0.2366, 0.7634],
    [3, 30, 0.0346, 0.2562],
    [10, 10, 0.7225, 1],
    [1, 1000, 0.0002, 0.0057],
  ] as const) {
    const r = rateOf(hits, of);
    t.ok(near(r.low, low) && near(r.high, high), `${hits}/${of}: ${r.low.toFixed(4)}-${r.high.toFixed(4)}, wanted ${low}-${high}`);
    t.equal(r.rate, hits / of);
  }
  t.same(rateOf(0, 0), { hits: 0, of: 0, rate: 0, low: 0, high: 1 }, 'no cycles: nothing known');
  t.equal(showRate(rateOf(3, 30)), '3/30 (10%, 95% 3-26%)');
  t.equal(showRate(rateOf(0, 0)), 'no judged cycles');
});

t.test('moved: each rate outside the other run\'s interval', async (t) => {
  t.ok(rateMoved(rateOf(0, 30), rateOf(12, 30)), '0/30 to 12/30');
  t.ok(rateMoved(rateOf(12, 30), rateOf(0, 30)), 'and back');
  t.notOk(rateMoved(rateOf(1, 3), rateOf(0, 3)), 'three cycles a night say too little');
  t.notOk(rateMoved(rateOf(10, 1000), rateOf(0, 30)), 'a small night consistent with a long record: not moved, though 0 is outside 10/1000');
  t.notOk(rateMoved(rateOf(3, 30), rateOf(5, 30)), 'within the noise');
  t.notOk(rateMoved(rateOf(0, 0), rateOf(5, 30)), 'no earlier cycles: nothing to move from');
});
