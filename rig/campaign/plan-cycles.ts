/**
 * The flat, ordered cycle list of a campaign: scenario by scenario in file order, cycle 1..N.
 * An unsharded run works through it in this order; shards take interleaved slices of it; merge
 * restores it.
 */
import type { Campaign, PlannedCycle } from './types.js';

/** A cycle's id: `<scenario>-<cycle>`. Unique, since names end where the cycle number starts. */
export function cycleId(scenario: string, cycle: number): string {
  return `${scenario}-${cycle}`;
}

export function planCycles(campaign: Pick<Campaign, 'scenarios'>): PlannedCycle[] {
  const cycles: PlannedCycle[] = [];
  for (const { settings, seeds } of campaign.scenarios) {
    seeds.forEach((seed, i) => {
      cycles.push({ id: cycleId(settings.name, i + 1), scenario: settings.name, cycle: i + 1, seed, position: cycles.length });
    });
  }
  return cycles;
}

/** The cycle records a run of these cycles makes: one per live cycle, `states` per explore cycle, none per perf pair. */
export function recordsPlanned(campaign: Pick<Campaign, 'scenarios'>, cycles: Pick<PlannedCycle, 'scenario'>[]): number {
  const states = new Map(campaign.scenarios.map((s) => [s.settings.name, s.settings.perf ? 0 : (s.settings.explore?.states ?? 1)]));
  return cycles.reduce((n, c) => n + (states.get(c.scenario) ?? 1), 0);
}
