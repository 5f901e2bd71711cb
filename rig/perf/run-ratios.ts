/**
 * A comparison's B / A ratios from its runs, one per repetition that has both members' runs, in
 * the order they ran; read QPS only when the workload reads.
 */
import type { PerfRatios, PerfRun } from './perf-record.js';
import { ratioSpread } from './ratio-spread.js';

export function runRatios(runs: readonly PerfRun[], compare: { a: string; b: string }, withReads: boolean): PerfRatios {
  const repetitions = [...new Set(runs.map((r) => r.repetition))];
  const both = repetitions.flatMap((rep) => {
    const a = runs.find((r) => r.repetition === rep && r.setting === compare.a);
    const b = runs.find((r) => r.repetition === rep && r.setting === compare.b);
    return a && b ? [{ a, b }] : [];
  });
  const of = (key: 'writeQps' | 'tps' | 'p99Ms' | 'readQps') => ratioSpread(both.map((p) => p.a[key]), both.map((p) => p.b[key]));
  return { writeQps: of('writeQps'), tps: of('tps'), p99Ms: of('p99Ms'), ...(withReads ? { readQps: of('readQps') } : {}) };
}
