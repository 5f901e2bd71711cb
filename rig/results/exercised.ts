/**
 * What a cycle exercised, from its evidence rather than its verdict. A torn page holds data unless
 * its tablespace marked it free in the crash image or by the end of recovery; of those in use, the
 * ones with a doublewrite copy the server's rules accept are the pages only doublewrite restores
 * (the claim of a doublewrite scenario), the others are left to the redo log. For cycles that tore
 * nothing, the page-size writes pending at the cut say whether the cut could have torn a page at
 * all, and how many of them crossed an atomic-unit boundary (the helper's definition: a write no
 * longer than the unit that spans two units).
 */
import type { PendingWrite } from '../../faults/crash-plan.js';
import type { Exercised, TornPage } from './types.js';

export function isInUse(p: TornPage): boolean {
  return !p.freedBefore && !p.freedAfter;
}

export function straddles(offset: number, length: number, unit: number): boolean {
  return length <= unit && Math.floor(offset / unit) !== Math.floor((offset + length - 1) / unit);
}

export function describeExercised(
  torn: readonly TornPage[],
  pending: readonly PendingWrite[],
  pageSize: number,
  atomicUnit: number,
): Exercised {
  const inUse = torn.filter(isInUse);
  const pageWrites = pending.filter((w) => w.length === pageSize);
  // records saved before the doublewrite evidence existed have none: no copy is known for them
  const restorable = (p: TornPage): boolean => p.doublewrite?.restorable === true;
  return {
    tornDoublewrite: inUse.filter(restorable).length,
    tornRedo: inUse.filter((p) => !restorable(p)).length,
    tornFreed: torn.length - inUse.length,
    pageWritesInFlight: pageWrites.length,
    pageWritesInFlightStraddling: pageWrites.filter((w) => straddles(w.offset, w.length, atomicUnit)).length,
  };
}

/** Whether a cycle exercised doublewrite: at least one in-use torn page only a doublewrite copy restores. */
export function exercisedDoublewrite(e: Exercised | null): boolean {
  return (e?.tornDoublewrite ?? 0) > 0;
}
