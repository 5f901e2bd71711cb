/**
 * A comparison along one axis: both members' prepared images made first (once each, then cached),
 * then runs interleaved A, B, A, B, ... so the machine's other work falls on both alike; each
 * repetition's pair gives one B / A ratio.
 */
import { cpus, loadavg } from 'node:os';
import { rigVersion } from '../version.js';
import { ensurePreparedImage } from '../cycle/prepared-image.js';
import { checkAborted } from '../interrupts.js';
import type { ServerRuntime } from '../runtime/types.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { DEFAULT_PERF } from '../defaults.js';
import { measureRun } from './measure-run.js';
import { members, type PerfComparison } from './perf-comparison.js';
import type { PerfRecord, PerfRun } from './perf-record.js';
import { readsCounted, sysbenchTest, type PerfWorkload } from './perf-workload.js';
import { runRatios } from './run-ratios.js';
import { sysbenchVersion } from './timed-sysbench.js';

export interface PerfInput {
  comparison: PerfComparison;
  workload: PerfWorkload;
  runtime: ServerRuntime;
  serverVersion: string;
  cacheRoot: string;
  diskRoot: string;
  diskEnvironment?: DiskEnvironment;
  repetitions: number;
  seed: number;
  signal?: AbortSignal;
  progress?: (line: string) => void;
}

const fixed = (n: number, digits = 1): string => n.toFixed(digits);

export async function runPerf(input: PerfInput): Promise<PerfRecord> {
  const { comparison, workload, signal } = input;
  const { axis, a } = comparison;
  const seconds = a.settings.perf!.seconds;
  const say = input.progress ?? (() => {});
  const startedAt = new Date().toISOString();
  const machine = { cpus: cpus().length, loadAverage: loadavg().map((l) => Number(l.toFixed(2))) };
  for (const member of members(comparison)) {
    say(`preparing the dataset for ${axis} ${member.label} (once, then cached)`);
    await ensurePreparedImage(member.settings, input.runtime, input.serverVersion, input.cacheRoot, signal, input.diskEnvironment);
    checkAborted(signal);
  }
  const runs: PerfRun[] = [];
  const total = input.repetitions * 2;
  for (let repetition = 1; repetition <= input.repetitions; repetition++) {
    for (const member of members(comparison)) {
      say(`run ${runs.length + 1}/${total}: ${axis} ${member.label}, ${seconds} s`);
      const summary = await measureRun({ ...input, settings: member.settings, seconds, seed: input.seed + repetition, workload });
      runs.push({ repetition, setting: member.label, ...summary });
      const reads = readsCounted(workload) ? `read QPS ${fixed(summary.readQps)}, ` : '';
      say(`  write QPS ${fixed(summary.writeQps)}, ${reads}TPS ${fixed(summary.tps)}, p99 ${fixed(summary.p99Ms, 2)} ms`);
      checkAborted(signal);
    }
  }
  const compare = { axis, a: a.label, b: comparison.b.label };
  const { load } = a.settings;
  return {
    kind: 'perf',
    versions: { rig: rigVersion(), server: input.serverVersion, sysbench: await sysbenchVersion(), node: process.version },
    profile: { name: a.settings.disk.profile, device: a.settings.disk.model },
    compare,
    machine,
    workload: { test: sysbenchTest(workload), seconds, connections: load.connections, tables: load.tables, rows: load.rows, randType: 'special', randSpecPct: DEFAULT_PERF.randSpecPct },
    settings: { [a.label]: a.settings, [comparison.b.label]: comparison.b.settings },
    runs,
    ratios: runRatios(runs, compare, readsCounted(workload)),
    startedAt,
    finishedAt: new Date().toISOString(),
  };
}
