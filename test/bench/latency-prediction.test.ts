import t from 'tap';
import { latencyAt, type LatencyPoint } from '../../faults/device-model.js';
import { percentileOf, predictLatency } from '../../bench/latency-prediction.js';

const ESSD: LatencyPoint[] = [{ percent: 0, us: 120 }, { percent: 50, us: 200 }, { percent: 99, us: 500 }, { percent: 100, us: 2000 }];

/** A seeded distribution of 2-5 points, rising. */
function randomPoints(seed: number): LatencyPoint[] {
  let x = seed;
  const next = (): number => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const inner = Array.from({ length: Math.floor(next() * 4) }, () => 1 + Math.floor(next() * 98)).sort((a, b) => a - b);
  const percents = [0, ...new Set(inner), 100];
  let us = 1 + next() * 100;
  return percents.map((percent) => ({ percent, us: (us += next() * 500) }));
}

t.test('percentileOf: the nearest rank', async (t) => {
  const sorted = [10, 20, 30, 40];
  t.same([0, 25, 26, 50, 99, 100].map((p) => percentileOf(sorted, p)), [10, 10, 20, 20, 40, 40]);
  t.throws(() => percentileOf([], 50), /no samples/);
});

t.test('with no stack time the prediction is the configured distribution (200 seeded distributions)', async (t) => {
  const misses: string[] = [];
  for (let seed = 1; seed <= 200; seed++) {
    const points = randomPoints(seed);
    const p = predictLatency(points, [0], [10, 50, 90, 99], seed, 20_000);
    for (const [i, pct] of [10, 50, 90, 99].entries()) {
      // Within 2 percentile points of the configured distribution, both ways: 20,000 draws put an
      // empirical median 0.35 points from the true one at one standard deviation.
      const [low, high] = [latencyAt(points, pct - 2)!, latencyAt(points, Math.min(100, pct + 2))!];
      for (const got of [p.configured[i]!, p.throughStack[i]!]) if (got < low || got > high) misses.push(`seed ${seed} p${pct}: ${got} outside ${low}-${high}`);
    }
  }
  t.same(misses, [], 'every percentile where the configured distribution puts it');
});

t.test('a constant stack time moves every percentile by itself', async (t) => {
  const p = predictLatency(ESSD, [15, 15, 15], [50, 99]);
  t.same(p.throughStack.map((x, i) => Math.round(x - p.configured[i]!)), [15, 15]);
});

t.test("a spread stack time moves essd's median by more than the stack's own median", async (t) => {
  const stack = Array.from({ length: 1000 }, (_, i) => (i % 100) * 0.6).sort((a, b) => a - b); // 0-59.4 µs, median about 30
  const p = predictLatency(ESSD, stack, [50]);
  const shift = p.throughStack[0]! - p.configured[0]!;
  t.ok(shift > percentileOf(stack, 50) + 5, `the median moved ${shift.toFixed(1)} µs, the stack's median is ${percentileOf(stack, 50)} µs`);
  t.ok(shift < 60, 'and by less than the stack ever adds');
});

t.test('the prediction is repeatable for a seed and needs stack samples', async (t) => {
  t.same(predictLatency(ESSD, [3, 9], [50, 99], 5, 1000), predictLatency(ESSD, [3, 9], [50, 99], 5, 1000));
  t.throws(() => predictLatency(ESSD, [], [50]), /no stack samples/);
});
