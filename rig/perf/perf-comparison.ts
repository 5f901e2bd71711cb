/**
 * What `rig perf` compares: two settings, A and B, that differ along one axis and in nothing else.
 * - doublewrite (the default): on (A) against off (B), perf-settings.ts's pair.
 * - engine: the load's tables on InnoDB (A) against MyRocks (B), on the same disk and profile.
 * - profile: one engine on two device profiles, in the order given (A, then B).
 * Each repetition runs A then B; every ratio is B / A.
 */
import type { ScenarioSettings } from '../results/types.js';
import { perfPair } from './perf-settings.js';

export const PERF_AXES = ['doublewrite', 'engine', 'profile'] as const;
export type PerfAxis = (typeof PERF_AXES)[number];

export interface PerfMember {
  label: string; // 'on', 'off'; 'innodb', 'rocksdb'; a profile's name
  settings: ScenarioSettings;
}

export interface PerfComparison {
  axis: PerfAxis;
  a: PerfMember;
  b: PerfMember;
}

const named = (settings: ScenarioSettings, axis: PerfAxis, label: string): ScenarioSettings => ({ ...settings, name: `${settings.name} ${axis} ${label}` });

function engineMember(settings: ScenarioSettings, engine: 'innodb' | 'rocksdb'): PerfMember {
  return { label: engine, settings: named({ ...settings, server: { ...settings.server, engine } }, 'engine', engine) };
}

/**
 * The comparison along `axis` from the perf scenario's settings (`first`); the profile axis takes
 * the same settings on the second profile as `second`, which no other axis uses.
 */
export function perfComparison(axis: PerfAxis, first: ScenarioSettings, second?: ScenarioSettings): PerfComparison {
  if (axis === 'doublewrite') {
    const pair = perfPair(first);
    return { axis, a: { label: 'on', settings: pair.on }, b: { label: 'off', settings: pair.off } };
  }
  if (axis === 'engine') return { axis, a: engineMember(first, 'innodb'), b: engineMember(first, 'rocksdb') };
  if (!second || second.disk.profile === first.disk.profile) throw new Error('a comparison of profiles needs two different profiles');
  return {
    axis,
    a: { label: first.disk.profile, settings: named(first, 'profile', first.disk.profile) },
    b: { label: second.disk.profile, settings: named(second, 'profile', second.disk.profile) },
  };
}

/** A then B: the order of a repetition's runs. */
export function members(comparison: PerfComparison): [PerfMember, PerfMember] {
  return [comparison.a, comparison.b];
}
