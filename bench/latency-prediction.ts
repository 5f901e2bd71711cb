/**
 * What a profile's write latency should look like once it has gone through this machine's stack
 * (fio, the loop device, FUSE, the helper's wake-up): the configured service time plus the
 * stack's own time, drawn independently. The stack's time is measured in the same run, on a disk
 * whose service time is a constant c: each of its completions minus c is one sample of what the
 * stack adds around a sleeping request.
 *
 * Adding the two moves percentiles by more than the stack's median wherever the configured
 * distribution is thin above the percentile (essd: 80 µs hold half the writes below its p50,
 * 300 µs the half above), so a profile is judged against this, not against its bare figure.
 */
import { latencyAt, type LatencyPoint } from '../faults/device-model.js';

/** The value at `percent` (0..100) of samples sorted ascending: the nearest rank. */
export function percentileOf(sorted: readonly number[], percent: number): number {
  if (sorted.length === 0) throw new Error('no samples');
  const rank = Math.ceil((percent / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** mulberry32: seeded, so a prediction is repeatable. */
function uniformFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface Prediction {
  /** The configured distribution alone, at each percentile asked for. */
  configured: number[];
  /** The configured distribution plus the stack's measured time, at each percentile. */
  throughStack: number[];
}

/**
 * The percentiles (0..100) of the configured latency `points` and of that latency plus a sample
 * of `stackUs` (what the stack added, in µs, one entry per measured completion), from `draws`
 * seeded draws.
 */
export function predictLatency(points: LatencyPoint[], stackUs: readonly number[], percents: readonly number[], seed = 1, draws = 200_000): Prediction {
  if (stackUs.length === 0) throw new Error('no stack samples');
  const next = uniformFrom(seed);
  const bare: number[] = [];
  const sums: number[] = [];
  for (let i = 0; i < draws; i++) {
    const configured = latencyAt(points, next() * 100) ?? 0;
    bare.push(configured);
    sums.push(configured + stackUs[Math.floor(next() * stackUs.length)]!);
  }
  bare.sort((a, b) => a - b);
  sums.sort((a, b) => a - b);
  return { configured: percents.map((p) => percentileOf(bare, p)), throughStack: percents.map((p) => percentileOf(sums, p)) };
}
