/**
 * What `rig perf` and a `mode: perf` scenario write (perf.json): the versions, the profile, what
 * was compared, the two settings, every run in the order it ran, and the B / A ratios computed
 * from those runs (doublewrite: off / on).
 */
import type { DeviceModel } from '../../faults/device-model.js';
import type { ScenarioSettings } from '../results/types.js';
import type { RatioSpread } from './ratio-spread.js';
import type { PerfAxis } from './perf-comparison.js';
import type { SysbenchTest } from './perf-workload.js';
import type { SysbenchSummary } from '../results/perf-pair-record.js';

export interface PerfRun extends SysbenchSummary {
  repetition: number; // 1..N; runs of one repetition are a pair
  setting: string; // the member's label: doublewrite on or off, an engine, a profile
}

/** B / A per repetition; read QPS only for a workload that reads. */
export interface PerfRatios {
  writeQps: RatioSpread;
  tps: RatioSpread;
  p99Ms: RatioSpread;
  readQps?: RatioSpread;
}

export interface PerfRecord {
  kind: 'perf';
  versions: { rig: string; server: string; sysbench: string; node: string };
  profile: { name: string; device: DeviceModel }; // A's; with the profile axis, B's is in settings
  compare: { axis: PerfAxis; a: string; b: string }; // the labels of A and B, as in runs' setting
  machine: { cpus: number; loadAverage: number[] }; // at the start: other work on the machine shows here
  workload: { test: SysbenchTest; seconds: number; connections: number; tables: number; rows: number; randType: 'special'; randSpecPct: number };
  settings: Record<string, ScenarioSettings>; // by label: {on, off} for doublewrite
  runs: PerfRun[];
  ratios: PerfRatios; // B / A, per repetition
  startedAt: string;
  finishedAt: string;
}
