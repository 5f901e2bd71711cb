/**
 * What `rig perf` and a `mode: perf` scenario write (perf.json): the versions, the profile, the two
 * settings, every run in the order it ran, and the off / on ratios computed from those runs.
 */
import type { DeviceModel } from '../../faults/device-model.js';
import type { ScenarioSettings } from '../results/types.js';
import type { RatioSpread } from './ratio-spread.js';
import type { PerfSetting } from './perf-settings.js';
import type { SysbenchSummary } from './sysbench-summary.js';

export interface PerfRun extends SysbenchSummary {
  repetition: number; // 1..N; runs of one repetition are a pair
  setting: PerfSetting; // doublewrite on or off
}

export interface PerfRatios {
  writeQps: RatioSpread;
  tps: RatioSpread;
  p99Ms: RatioSpread;
}

export interface PerfRecord {
  kind: 'perf';
  versions: { rig: string; server: string; sysbench: string; node: string };
  profile: { name: string; device: DeviceModel };
  machine: { cpus: number; loadAverage: number[] }; // at the start: other work on the machine shows here
  workload: { test: 'oltp_write_only'; seconds: number; connections: number; tables: number; rows: number; randType: 'special'; randSpecPct: number };
  settings: Record<PerfSetting, ScenarioSettings>;
  runs: PerfRun[];
  ratios: PerfRatios; // doublewrite off / on, per repetition
  startedAt: string;
  finishedAt: string;
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
