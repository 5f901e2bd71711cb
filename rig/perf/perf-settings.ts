/**
 * The two settings `rig perf` and a `mode: perf` scenario compare: the same disk, profile,
 * filesystem and dataset, doublewrite on, and doublewrite off with 16 KiB atomic writes. Both run
 * on ext4 with 16 KiB bigalloc clusters, where every page write is 16 KiB-aligned on the device
 * (docs/design.md, "The disk model"), so doublewrite is the only difference.
 */
import type { Flushing, ScenarioSettings } from '../results/types.js';

export const PERF_FS = 'ext4-bigalloc16k';
export const PERF_ATOMIC = '16k';
export type PerfSetting = 'on' | 'off';
export type PerfPair = Record<PerfSetting, ScenarioSettings>;

/** A perf scenario's settings (the doublewrite-on member's) as the pair it compares. */
export function perfPair(settings: ScenarioSettings): PerfPair {
  const on = { ...settings, name: `${settings.name} doublewrite on`, server: { ...settings.server, doublewrite: true } };
  const off = { ...settings, name: `${settings.name} doublewrite off`, server: { ...settings.server, doublewrite: false } };
  return { on, off };
}

/** The page flushing a member ran with: a record or scenario that names none ran the cycles' eager flushing. */
export function flushingOf(settings: Pick<ScenarioSettings, 'server'> | undefined): Flushing {
  return settings?.server.flushing ?? 'eager';
}
