/**
 * When explore opens another lane (LaneGrowth): only while the cores have room for half a lane
 * more, measured over a window of states and time, never past the most, never with too few states
 * left to share, and never where the machine's CPU cannot be read. The CPU readings and the clock
 * are given, so each case is the one named.
 */
import t from 'tap';
import { LaneGrowth, mostLanes, MAX_LANES, roomForAnotherLane } from '../../rig/explore/lane-growth.js';
import { busyShareBetween, machineCpu, type MachineCpu } from '../../rig/explore/machine-cpu.js';

/** A machine whose cores are `busy()` busy: each reading adds a second of CPU time. */
function fakeMachine(busy: () => number): { sample: () => MachineCpu; now: () => number; tick: (ms: number) => void } {
  const cpu = { busy: 0, total: 0 };
  let clock = 0;
  return {
    sample: () => ({ ...cpu }),
    now: () => clock,
    tick: (ms) => {
      clock += ms;
      cpu.total += ms / 1000;
      cpu.busy += (busy() * ms) / 1000;
    },
  };
}

t.test('room for another lane: idle cores for half of one lane', async (t) => {
  t.ok(roomForAnotherLane(0.8, 2), 'two lanes at 80% busy: room');
  t.notOk(roomForAnotherLane(0.81, 2), 'two lanes at 81%: none');
  t.ok(roomForAnotherLane(0.72, 2), "the idle machine's 72% (a third lane paid 8-12% there)");
  t.notOk(roomForAnotherLane(0.84, 2), "the busy machine's 84% (a third lane gave nothing there)");
  t.ok(roomForAnotherLane(0.857, 3), 'three lanes: room up to 6/7');
  t.notOk(roomForAnotherLane(0.86, 3));
  t.ok(roomForAnotherLane(0.2, 1) && !roomForAnotherLane(0.7, 1), 'one lane: room up to 2/3');
});

t.test('an idle machine grows a lane per window, up to the most', async (t) => {
  const m = fakeMachine(() => 0.5);
  const growth = new LaneGrowth({ lanes: 2, most: 4, sample: m.sample, now: m.now, statesPerLane: 2, minWindowMs: 2000 });
  const opened: Array<[number, number]> = [];
  for (let judged = 1; judged <= 40; judged++) {
    m.tick(500);
    const o = growth.stateJudged(100);
    if (o) {
      t.equal(o.afterStates, judged, 'says after how many states');
      t.equal(o.busyShare, 0.5, 'and how busy the cores were');
      opened.push([judged, o.lanes]);
    }
  }
  // the first state starts the window; two lanes need 4 more states and 2 s; three lanes 6 and 2 s
  t.same(opened, [[5, 3], [11, 4]], 'a third lane after the first window, a fourth after the next, no fifth');
  t.equal(growth.lanes, 4);
});

t.test('a busy machine keeps its lanes; one that quietens grows', async (t) => {
  let busy = 0.85;
  const m = fakeMachine(() => busy);
  const growth = new LaneGrowth({ lanes: 2, most: 3, sample: m.sample, now: m.now });
  const opened: number[] = [];
  for (let judged = 1; judged <= 30; judged++) {
    if (judged === 15) busy = 0.6;
    m.tick(500);
    if (growth.stateJudged(100)) opened.push(judged);
  }
  // windows end at states 5, 9 and 13 (85% busy: no room), 17 holds 14-17 at 60% and 13 at 85%
  t.same(opened, [17], 'grows only once the window it judges by was quiet enough');
});

t.test('a window needs its states and its time', async (t) => {
  const m = fakeMachine(() => 0);
  const quick = new LaneGrowth({ lanes: 2, most: 3, sample: m.sample, now: m.now });
  for (let judged = 1; judged <= 20; judged++) {
    m.tick(100); // 20 states in 2 s: the window's time comes at state 21
    t.equal(quick.stateJudged(100), null, `state ${judged}: the window is too short`);
  }
  m.tick(100);
  t.ok(quick.stateJudged(100), 'state 21: 2 s since the first');
  const slow = new LaneGrowth({ lanes: 2, most: 3, sample: m.sample, now: m.now });
  const at: number[] = [];
  for (let judged = 1; judged <= 6; judged++) {
    m.tick(10_000);
    if (slow.stateJudged(100)) at.push(judged);
  }
  t.same(at, [5], 'slow states: four after the first, whatever the time');
});

t.test('no lane opens with too few states left, at the most, or without CPU readings', async (t) => {
  const m = fakeMachine(() => 0);
  const few = new LaneGrowth({ lanes: 2, most: 3, sample: m.sample, now: m.now });
  const left = [9, 8, 7, 6, 1, 0];
  t.same(left.map((untaken) => (m.tick(1000), few.stateJudged(untaken)?.lanes ?? null)), [null, null, null, null, null, null], 'one state untaken at the window: not worth a lane');
  const full = new LaneGrowth({ lanes: 3, most: 3, sample: m.sample, now: m.now });
  t.same([1, 2, 3, 4, 5, 6, 7].map(() => (m.tick(1000), full.stateJudged(100))), Array(7).fill(null), 'already at the most');
  const blind = new LaneGrowth({ lanes: 2, most: 3, sample: () => null, now: m.now });
  t.same([1, 2, 3, 4, 5, 6].map(() => (m.tick(1000), blind.stateJudged(100))), Array(6).fill(null), 'no /proc/stat: the lanes it has');
});

t.test('the most lanes and this machine', async (t) => {
  t.equal(mostLanes(2), 3, 'two cores: three lanes at most');
  t.equal(mostLanes(1), 2);
  t.equal(mostLanes(64), MAX_LANES, 'never past what --lanes takes');
  const a = machineCpu();
  t.ok(a && a.total > 0 && a.busy >= 0 && a.busy <= a.total, `this machine's CPU time reads (${a?.busy.toFixed(0)} of ${a?.total.toFixed(0)} s busy)`);
  t.equal(busyShareBetween(a!, a!), null, 'no time between two readings: no share');
  t.equal(busyShareBetween({ busy: 1, total: 2 }, { busy: 4, total: 6 }), 0.75);
});
