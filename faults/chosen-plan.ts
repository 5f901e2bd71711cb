/**
 * Plans whose fates are chosen write by write instead of drawn from a seed: a crash state built on
 * purpose (every write landed, or exactly the writes of chosen pages torn) for a check that needs
 * that state, and the candidate plans a search over fates tries. A chosen plan is data like any
 * other: saved as plan.json it rebuilds its crash image byte for byte, and `chosen` says how it
 * was made. Fates follow from the units landed: all of them is `landed`, none is `dropped`.
 */
import { unitSpan, type CrashPlan, type Fate, type PendingWrite } from './crash-plan.js';

/** Which of a write's units land: indexes from 0 to units - 1. */
export type UnitsLanded = (write: PendingWrite, index: number) => number[];

export const ALL_UNITS: UnitsLanded = (w) => Array.from({ length: w.units }, (_, i) => i);

function fateOf(landed: number, units: number): Fate {
  if (landed === units) return 'landed';
  return landed === 0 ? 'dropped' : 'torn';
}

/** The same pending writes as `from`, each with the units `choose` lands. */
export function choosePlan(from: CrashPlan, how: string, choose: UnitsLanded): CrashPlan {
  const writes = from.writes.map((w, i): PendingWrite => {
    const units = unitSpan(w.offset, w.length, from.atomicUnit).count;
    const base = { seq: w.seq, offset: w.offset, length: w.length, units };
    const landed = [...new Set(choose({ ...w, units }, i))].filter((u) => Number.isInteger(u) && u >= 0 && u < units).sort((a, b) => a - b);
    return { ...base, fate: fateOf(landed.length, units), unitsLanded: landed };
  });
  return { version: 1, seed: from.seed, atomicUnit: from.atomicUnit, policy: from.policy, writes, chosen: how };
}

/** Every pending write landed whole: the state a durable cache would have kept. No page can tear. */
export function landAll(from: CrashPlan): CrashPlan {
  return choosePlan(from, 'every write landed', ALL_UNITS);
}

/**
 * The writes named in `fates` dropped or torn, every other write landed. A torn write keeps its
 * first unit only, as a write that stopped part-way does; a write of a single unit cannot tear
 * and lands.
 */
export function landAllBut(from: CrashPlan, fates: ReadonlyMap<number, 'dropped' | 'torn'>, how: string): CrashPlan {
  return choosePlan(from, how, (w, i) => {
    const fate = fates.get(w.seq);
    if (fate === 'dropped') return [];
    return fate === 'torn' && w.units > 1 ? [0] : ALL_UNITS(w, i);
  });
}
