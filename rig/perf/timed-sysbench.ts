/**
 * One measured sysbench run: oltp_write_only or oltp_read_write for a fixed time in the +47% figure's shape
 * (`--rand-type=special --rand-spec-pct=15`), with the 99th percentile of its latency. The run's
 * figures come from sysbench's own closing statistics.
 */
import { execa } from 'execa';
import { rigFailure } from '../errors.js';
import { DEFAULT_PERF } from '../defaults.js';
import { sysbenchSeed, sysbenchWriteOnlyArgs } from '../load/sysbench.js';
import { sysbenchFailure } from '../load/sysbench-report.js';
import { findExecutable } from '../runtime/find-server-binary.js';
import { readSysbenchSummary } from './sysbench-summary.js';
import type { SysbenchSummary } from '../results/perf-pair-record.js';
import { sysbenchTest, type PerfWorkload } from './perf-workload.js';
import { checkAborted } from '../interrupts.js';

export interface TimedSysbench {
  socketPath: string;
  tables: number;
  rows: number;
  connections: number;
  seconds: number;
  seed: number;
  workload?: PerfWorkload; // write-only when absent
  signal?: AbortSignal;
}

export function timedSysbenchArgs(run: TimedSysbench): string[] {
  const [, ...connection] = sysbenchWriteOnlyArgs(run);
  return [
    sysbenchTest(run.workload ?? 'write-only'),
    ...connection,
    `--time=${run.seconds}`,
    '--events=0',
    '--rand-type=special',
    `--rand-spec-pct=${DEFAULT_PERF.randSpecPct}`,
    '--percentile=99',
    `--rand-seed=${sysbenchSeed(run.seed)}`,
    'run',
  ];
}

function sysbenchPath(): string {
  const path = findExecutable(['sysbench']);
  if (!path) throw rigFailure('sysbench was not found: install it (apt-get install sysbench)');
  return path;
}

export async function sysbenchVersion(): Promise<string> {
  const run = await execa(sysbenchPath(), ['--version'], { reject: false });
  return run.stdout.trim() || 'unknown';
}

export async function runTimedSysbench(run: TimedSysbench): Promise<SysbenchSummary> {
  const result = await execa(sysbenchPath(), timedSysbenchArgs(run), {
    reject: false,
    all: true,
    ...(run.signal ? { cancelSignal: run.signal } : {}),
    forceKillAfterDelay: 5000,
  });
  checkAborted(run.signal);
  const summary = result.failed ? null : readSysbenchSummary(result.stdout);
  if (!summary) {
    const why = sysbenchFailure(result.all ?? '') ?? result.shortMessage ?? 'no statistics in its output';
    throw rigFailure(`sysbench failed: ${why}`);
  }
  return summary;
}
