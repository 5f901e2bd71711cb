/**
 * The doublewrite comparison: both settings' prepared images made first (once each, then cached),
 * then runs interleaved on, off, on, off, ... so the machine's other work falls on both alike;
 * each repetition's pair gives one off / on ratio.
 */
import { cpus, loadavg } from 'node:os';
import { rigVersion } from '../campaign/environment.js';
import { ensurePreparedImage } from '../cycle/prepared-image.js';
import { checkAborted } from '../interrupts.js';
import type { ServerRuntime } from '../runtime/types.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { DEFAULT_PERF } from '../defaults.js';
import { measureRun } from './measure-run.js';
import type { PerfRecord, PerfRun } from './perf-record.js';
import { PERF_SETTINGS, type PerfPair } from './perf-settings.js';
import { ratioSpread } from './ratio-spread.js';
import { sysbenchVersion } from './timed-sysbench.js';

export interface PerfInput {
  pair: PerfPair;
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
  const { pair, signal } = input;
  const seconds = pair.on.perf!.seconds;
  const say = input.progress ?? (() => {});
  const startedAt = new Date().toISOString();
  const machine = { cpus: cpus().length, loadAverage: loadavg().map((l) => Number(l.toFixed(2))) };
  for (const setting of PERF_SETTINGS) {
    say(`preparing the dataset for doublewrite ${setting} (once, then cached)`);
    await ensurePreparedImage(pair[setting], input.runtime, input.serverVersion, input.cacheRoot, signal, input.diskEnvironment);
    checkAborted(signal);
  }
  const runs: PerfRun[] = [];
  const total = input.repetitions * PERF_SETTINGS.length;
  for (let repetition = 1; repetition <= input.repetitions; repetition++) {
    for (const setting of PERF_SETTINGS) {
      say(`run ${runs.length + 1}/${total}: doublewrite ${setting}, ${seconds} s`);
      const summary = await measureRun({ ...input, settings: pair[setting], seconds, seed: input.seed + repetition });
      runs.push({ repetition, setting, ...summary });
      say(`  write QPS ${fixed(summary.writeQps)}, TPS ${fixed(summary.tps)}, p99 ${fixed(summary.p99Ms, 2)} ms`);
      checkAborted(signal);
    }
  }
  const of = (setting: 'on' | 'off', key: 'writeQps' | 'tps' | 'p99Ms') => runs.filter((r) => r.setting === setting).map((r) => r[key]);
  const { load } = pair.on;
  return {
    kind: 'perf',
    versions: { rig: rigVersion(), server: input.serverVersion, sysbench: await sysbenchVersion(), node: process.version },
    profile: { name: pair.on.disk.profile, device: pair.on.disk.model },
    machine,
    workload: { test: 'oltp_write_only', seconds, connections: load.connections, tables: load.tables, rows: load.rows, randType: 'special', randSpecPct: DEFAULT_PERF.randSpecPct },
    settings: pair,
    runs,
    ratios: {
      writeQps: ratioSpread(of('on', 'writeQps'), of('off', 'writeQps')),
      tps: ratioSpread(of('on', 'tps'), of('off', 'tps')),
      p99Ms: ratioSpread(of('on', 'p99Ms'), of('off', 'p99Ms')),
    },
    startedAt,
    finishedAt: new Date().toISOString(),
  };
}
