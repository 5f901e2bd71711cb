/**
 * A `mode: perf` scenario's cycle: one pair of runs, doublewrite on then off, with the same seed.
 * A failure of the rig becomes the pair's error (no figures), never a figure; an interrupt is
 * rethrown, the pair unrecorded.
 */
import { checkAborted } from '../interrupts.js';
import type { ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { measureRun } from './measure-run.js';
import type { PerfPairRecord } from '../results/perf-pair-record.js';
import { perfPair } from './perf-settings.js';
import { sysbenchVersion } from './timed-sysbench.js';

export interface PairInput {
  id: string;
  settings: ScenarioSettings; // the perf scenario's
  cycle: number;
  seed: number;
  runtime: ServerRuntime;
  serverVersion: string;
  cacheRoot: string;
  diskRoot: string;
  diskEnvironment?: DiskEnvironment;
  signal?: AbortSignal;
}

export async function measurePair(input: PairInput): Promise<PerfPairRecord> {
  const pair = perfPair(input.settings);
  const record: PerfPairRecord = {
    id: input.id,
    scenario: input.settings.name,
    cycle: input.cycle,
    seed: input.seed,
    on: null,
    off: null,
    error: null,
    versions: { server: input.serverVersion, sysbench: await sysbenchVersion() },
  };
  const seconds = input.settings.perf!.seconds;
  try {
    record.on = await measureRun({ ...input, settings: pair.on, seconds });
    checkAborted(input.signal);
    record.off = await measureRun({ ...input, settings: pair.off, seconds });
  } catch (error) {
    checkAborted(input.signal);
    record.on = record.off = null;
    record.error = (error as Error).message ?? String(error);
  }
  return record;
}
