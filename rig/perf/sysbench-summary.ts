/**
 * Reads the statistics sysbench prints when a timed run ends: read and write queries,
 * transactions, the run's length and the latency percentile it was asked for (`--percentile=99`).
 */
import type { SysbenchSummary } from '../results/perf-pair-record.js';

function field(output: string, pattern: RegExp): number | null {
  const m = pattern.exec(output);
  return m ? Number(m[1]) : null;
}

/** The run's figures, or null when the output lacks any of them (sysbench failed or was stopped). */
export function readSysbenchSummary(output: string): SysbenchSummary | null {
  const reads = field(output, /^\s*read:\s+(\d+)\s*$/m) ?? 0;
  const writes = field(output, /^\s*write:\s+(\d+)\s*$/m);
  const transactions = field(output, /^\s*transactions:\s+(\d+)\s/m);
  const seconds = field(output, /^\s*total time:\s+([\d.]+)s\s*$/m);
  const p99Ms = field(output, /^\s*99th percentile:\s+([\d.]+)\s*$/m);
  const errors = field(output, /^\s*ignored errors:\s+(\d+)\s/m) ?? 0;
  if (writes === null || transactions === null || seconds === null || p99Ms === null || seconds <= 0) return null;
  return { reads, writes, transactions, seconds, readQps: reads / seconds, writeQps: writes / seconds, tps: transactions / seconds, p99Ms, errors };
}
