/**
 * The fate of every write that was pending at the cut, decided from a seed: it lands whole, is
 * dropped, or tears at the device's atomic unit (a prefix of its units, or any proper subset).
 * Units are aligned to device offsets, so a write covering one unit can never tear. The plan is
 * data: saved beside the crash image, it rebuilds that image without the seed or the policy.
 */
import { createRng, type Rng } from './prng.js';

export type Fate = 'landed' | 'dropped' | 'torn';

/** One write that was pending (unflushed) at the cut, and what the plan made of it. */
export interface PendingWrite {
  seq: number;
  offset: number; // device byte offset
  length: number;
  fate: Fate;
  units: number; // atomic units the write covers
  unitsLanded: number[]; // indexes (0-based, within this write) of the units that landed
}

export interface FatePolicy {
  land: number; // relative weights
  drop: number;
  tear: number;
}

export const DEFAULT_POLICY: FatePolicy = { land: 0.35, drop: 0.3, tear: 0.35 };

export interface CrashPlan {
  version: 1;
  seed: number;
  atomicUnit: number;
  policy: FatePolicy;
  writes: PendingWrite[];
  /** Set when the fates were chosen write by write (./chosen-plan.ts), not drawn from the seed:
   * how they were chosen. The seed and policy are then those of the plan it was chosen from. */
  chosen?: string;
}

/** The aligned units a write covers: the index of the first on the device, and how many. */
export function unitSpan(offset: number, length: number, unit: number): { first: number; count: number } {
  const first = Math.floor(offset / unit);
  const last = Math.floor((offset + length - 1) / unit);
  return { first, count: last - first + 1 };
}

function tornUnits(rng: Rng, count: number): number[] {
  if (rng.next() < 0.5) {
    const k = 1 + rng.int(count - 1); // a prefix: the write stopped part-way
    return Array.from({ length: k }, (_, i) => i);
  }
  for (;;) {
    const landed = Array.from({ length: count }, (_, i) => i).filter(() => rng.next() < 0.5);
    if (landed.length > 0 && landed.length < count) return landed;
  }
}

export function makePlan(
  writes: { seq: number; offset: number; length: number }[],
  seed: number,
  atomicUnit: number,
  policy: FatePolicy = DEFAULT_POLICY,
): CrashPlan {
  const rng = createRng(seed);
  const total = policy.land + policy.drop + policy.tear;
  const planned = writes.map((w): PendingWrite => {
    const { count } = unitSpan(w.offset, w.length, atomicUnit);
    const canTear = count > 1 && policy.tear > 0;
    const roll = rng.next() * (canTear ? total : policy.land + policy.drop);
    const base = { seq: w.seq, offset: w.offset, length: w.length, units: count };
    if (roll < policy.land) return { ...base, fate: 'landed', unitsLanded: Array.from({ length: count }, (_, i) => i) };
    if (roll < policy.land + policy.drop || !canTear) return { ...base, fate: 'dropped', unitsLanded: [] };
    return { ...base, fate: 'torn', unitsLanded: tornUnits(rng, count) };
  });
  return { version: 1, seed, atomicUnit, policy, writes: planned };
}
