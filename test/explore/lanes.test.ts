/**
 * Judging in lanes keeps the outcome of judging in order: a crash image shared by several states is
 * judged by the first of them in state order that judges it without a rig error, whatever order
 * the lanes finish in (JudgedImages), results are handed on in state order (InOrder), and the
 * lanes hold their turns at the rig's thread one at a time, in the order they asked (Turns). Lanes
 * (judgeInLanes) take each state once, each lane in state order, lanes opened mid-run included, and
 * a failure stops them all from taking more. Seeded: random keys, finishing orders, hold times.
 */
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRng } from '../../faults/prng.js';
import { InOrder } from '../../rig/explore/in-order.js';
import { JudgedImages } from '../../rig/explore/judged-images.js';
import { Turns } from '../../rig/explore/turns.js';
import type { LaneGrowth } from '../../rig/explore/lane-growth.js';
import { judgeInLanes } from '../../rig/explore/state-lanes.js';
import type { CycleRecord } from '../../rig/results/types.js';

/** Who judges each state's image when states are judged in order; `errs`: states ending in a rig error. */
function inOrder(keys: string[], errs: Set<number>): Array<number | null> {
  const judged = new Map<string, number>();
  return keys.map((key, i) => {
    const first = judged.get(key);
    if (first !== undefined) return first;
    if (!errs.has(i)) judged.set(key, i);
    return null;
  });
}

t.test('JudgedImages: the same takers as in order, for any lanes and finishing order', async (t) => {
  const differ: string[] = [];
  for (let seed = 1; seed <= 200; seed++) {
    const rng = createRng(seed);
    const n = 1 + rng.int(12);
    const keys = Array.from({ length: n }, () => `k${rng.int(4)}`);
    const errs = new Set(Array.from({ length: n }, (_, i) => i).filter(() => rng.int(5) === 0));
    const lanes = 1 + rng.int(3);
    const images = new JudgedImages(keys);
    const took: Array<number | null> = new Array(n).fill(null);
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; i < n; i += lanes) {
          const same = images.for(i);
          const earlier = await same.earlier;
          await sleep(rng.int(3)); // lanes finish in any order
          took[i] = earlier ? Number(earlier.id) : null;
          const own = { id: String(i) } as CycleRecord;
          same.settle(earlier ?? (errs.has(i) ? null : own));
        }
      }),
    );
    if (JSON.stringify(took) !== JSON.stringify(inOrder(keys, errs))) differ.push(`seed ${seed}: ${JSON.stringify(took)}`);
  }
  t.same(differ, [], 'every state took the judgement it takes in order');
});

t.test('JudgedImages: a state no lane will judge releases the states waiting on it', async (t) => {
  const images = new JudgedImages(['a', 'a', 'a']);
  images.settle(0, null); // its lane stopped before it
  t.equal(await images.for(1).earlier, null, 'the next state of the image judges it itself');
  images.settle(1, { id: '1' } as CycleRecord);
  images.settle(1, null); // a second settle changes nothing
  t.equal((await images.for(2).earlier)?.id, '1');
});

t.test('InOrder: results put in any order are handed on in order, each once', async (t) => {
  const seen: number[] = [];
  const order = new InOrder<number>(async (item, index) => {
    t.equal(item, index * 10, `item ${index} is the one put at ${index}`);
    await sleep(1);
    seen.push(index);
  });
  for (const i of [2, 0, 3, 1, 5, 4]) order.put(i, i * 10);
  t.same(await order.finish(), [0, 10, 20, 30, 40, 50]);
  t.same(seen, [0, 1, 2, 3, 4, 5]);
});

t.test('InOrder: a failure to hand one on stops the rest and is thrown at the end', async (t) => {
  const seen: number[] = [];
  const order = new InOrder<number>((item) => {
    if (item === 1) throw new Error('the disk is full');
    seen.push(item);
  });
  for (const i of [0, 1, 2]) order.put(i, i);
  await t.rejects(order.finish(), /the disk is full/);
  t.ok(order.failed, 'the lanes can see it and stop');
  t.same(seen, [0], 'nothing after the failure is handed on');
});

t.test('Turns: one holder at a time, granted in the order asked, for any lanes and hold times', async (t) => {
  const problems: string[] = [];
  for (let seed = 1; seed <= 50; seed++) {
    const rng = createRng(seed);
    const turns = new Turns();
    const asked: string[] = [];
    const granted: string[] = [];
    let holders = 0;
    const lanes = 1 + rng.int(4);
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let k = 0; k < 1 + rng.int(4); k++) {
          await sleep(rng.int(3));
          asked.push(`${lane}.${k}`);
          const end = await turns.take();
          granted.push(`${lane}.${k}`);
          if (++holders > 1) problems.push(`seed ${seed}: ${holders} holders at once`);
          await sleep(rng.int(3));
          holders--;
          end();
          end(); // a second end lets no one else in early
        }
      }),
    );
    if (JSON.stringify(granted) !== JSON.stringify(asked)) problems.push(`seed ${seed}: asked ${asked.join(' ')}, granted ${granted.join(' ')}`);
  }
  t.same(problems, [], 'never two holders; every turn granted in the order asked');
});

// bounded: a stall fails in seconds, not at tap's ten-minute timeout
t.test('Turns: a lane that ends its turn before waiting on another state cannot stall the others', { timeout: 10_000 }, async (t) => {
  // judgeState's order: a turn for the scan, ended before waiting on the state that judges the same
  // image first, then a turn for the scan after recovery
  const turns = new Turns();
  const images = new JudgedImages(['a', 'a', 'a', 'a']);
  const judged: number[] = [];
  await Promise.all(
    [0, 1].map(async (lane) => {
      for (let i = lane; i < 4; i += 2) {
        let end = await turns.take();
        await sleep(lane === 0 ? 5 : 0); // the later state's scan ends first
        end();
        const same = images.for(i);
        const earlier = await same.earlier;
        if (!earlier) {
          end = await turns.take();
          judged.push(i);
          end();
        }
        same.settle(earlier ?? ({ id: String(i) } as CycleRecord));
      }
    }),
  );
  t.same(judged, [0], 'the first state judged the image; the rest took its judgement');
});

/** judgeInLanes over `states` states with seeded hold times: what each lane took, in order. */
async function laneRun(seed: number, options: { states: number; lanes: number; growAt?: number[]; failAt?: number; failOpen?: number }) {
  const rng = createRng(seed);
  const took: number[][] = [];
  const judged: number[] = [];
  const dropped: number[] = [];
  const closed: number[] = [];
  const takenAfterFailure: number[] = [];
  let failed = false;
  let inFlight = 0;
  let mostInFlight = 0;
  let judgedCount = 0;
  let lanesNow = options.lanes;
  const growth = {
    stateJudged: () => {
      judgedCount++;
      if (!options.growAt?.includes(judgedCount)) return null;
      return { lanes: ++lanesNow, afterStates: judgedCount, busyShare: 0.5 };
    },
  } as unknown as LaneGrowth;
  const run = judgeInLanes<number>({
    states: options.states,
    lanes: options.lanes,
    growth,
    open: async (lane) => {
      await sleep(rng.int(3));
      if (lane === options.failOpen) throw new Error(`lane ${lane} has no disk`);
      took[lane] = [];
      return lane;
    },
    judge: async (i, lane) => {
      if (failed) takenAfterFailure.push(i);
      took[lane]!.push(i);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await sleep(rng.int(4));
      inFlight--;
      if (i === options.failAt) {
        failed = true;
        throw new Error(`state ${i} broke`);
      }
      judged.push(i);
    },
    close: async (lane) => void closed.push(lane),
    dropped: (i) => void dropped.push(i),
  });
  return { run, took, judged, dropped, closed, takenAfterFailure, mostInFlight: () => mostInFlight };
}

t.test('judgeInLanes: every state judged once, each lane in state order, lanes opened as grown', async (t) => {
  const problems: string[] = [];
  for (let seed = 1; seed <= 100; seed++) {
    const rng = createRng(1000 + seed);
    const states = 1 + rng.int(30);
    const lanes = 1 + rng.int(3);
    const growAt = rng.int(2) ? [1 + rng.int(states)] : [];
    const r = await laneRun(seed, { states, lanes, growAt });
    const result = await r.run;
    const all = r.took.flat().sort((a, b) => a - b);
    if (JSON.stringify(all) !== JSON.stringify(Array.from({ length: states }, (_, i) => i))) problems.push(`seed ${seed}: took ${JSON.stringify(r.took)}`);
    if (r.took.some((mine) => mine.some((x, k) => k > 0 && x < mine[k - 1]!))) problems.push(`seed ${seed}: a lane went back: ${JSON.stringify(r.took)}`);
    // a growth point past the last state taken opens nothing: no lane finishes a state after it
    const grown = growAt.filter((at) => at < states).length;
    if (result.most !== lanes + result.opened.length || result.opened.length > growAt.length || result.opened.length < Math.min(1, grown)) {
      problems.push(`seed ${seed}: ${lanes} lanes grown at ${growAt} gave ${result.most} (${JSON.stringify(result.opened)})`);
    }
    if (r.closed.length !== result.most) problems.push(`seed ${seed}: ${r.closed.length} of ${result.most} lanes closed`);
    if (r.mostInFlight() > result.most) problems.push(`seed ${seed}: ${r.mostInFlight()} states in flight with ${result.most} lanes`);
  }
  t.same(problems, [], 'every state once, in order within a lane, every lane closed, never more in flight than lanes');
});

t.test('judgeInLanes: a lane opened late takes the next state and shares the rest', async (t) => {
  const r = await laneRun(7, { states: 12, lanes: 2, growAt: [2] });
  const result = await r.run;
  t.equal(result.most, 3, 'a third lane opened');
  t.same(result.opened.map((o) => o.afterStates), [2]);
  t.ok(r.took[2]!.length > 0, `the third lane judged states ${r.took[2]}`);
  t.ok(r.took[2]![0]! >= 3, 'beginning after the states the first two had begun');
});

t.test('judgeInLanes: a failure stops every lane taking more; begun states end, every lane closes', async (t) => {
  const r = await laneRun(3, { states: 20, lanes: 2, failAt: 4 });
  await t.rejects(r.run, /state 4 broke/, 'the failure is thrown');
  t.same(r.dropped, [4], 'the failed state is dropped, so no state waits on it');
  t.same(r.takenAfterFailure, [], `no state taken after the failure (taken: ${r.took.flat()})`);
  t.ok(r.judged.length < 19, `the lanes stopped short of the 20 states (${r.judged.length} judged)`);
  t.same(r.closed.sort(), [0, 1], 'both lanes closed');
  const o = await laneRun(4, { states: 20, lanes: 3, failOpen: 1 });
  await t.rejects(o.run, /lane 1 has no disk/, 'a lane that cannot open fails the run');
  t.same(o.closed.sort(), [0, 2], 'the lanes that opened closed');
  t.ok(o.judged.length < 20, `the others stopped taking states (${o.judged.length} judged)`);
});
