/** What a `mode: perf` scenario's cycle keeps in a campaign's results (measured by rig/perf/). */

/** The figures of one timed sysbench run (read from its output by rig/perf/sysbench-summary.ts). */
export interface SysbenchSummary {
  reads: number; // read queries performed (0 for oltp_write_only)
  writes: number; // write queries performed
  transactions: number;
  seconds: number; // sysbench's own "total time"
  readQps: number; // reads / seconds
  writeQps: number; // writes / seconds
  tps: number; // transactions / seconds
  p99Ms: number; // the 99th percentile of a transaction's latency
  errors: number; // ignored errors (deadlocks sysbench retried)
}

/** A `mode: perf` scenario's cycle in a campaign: one pair of runs, doublewrite on then off. */
export interface PerfPairRecord {
  id: string; // <scenario>-<cycle>, as a cycle's
  scenario: string;
  cycle: number; // the repetition
  seed: number; // sysbench's --rand-seed for both runs
  on: SysbenchSummary | null; // null when the pair failed
  off: SysbenchSummary | null;
  error: string | null; // the rig's failure, when the pair has no figures
  versions: { server: string; sysbench: string };
}
