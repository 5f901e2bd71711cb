/**
 * What the builtin load's clients do, in proportion: each step a client takes is one of the load
 * kinds, drawn by weight. `write-only` is the sysbench-like transaction on the sbtest tables (with
 * the ledger row); the others are lifecycle steps on tables of their own (rig/load/lifecycle/):
 * `churn` creates, fills, truncates and drops tables, `alter` rebuilds a table and adds or drops a
 * secondary index, `partitions` adds, truncates and drops partitions, `partition-truncate` only
 * truncates and refills them, `bulk` inserts large batches that grow a file past its first
 * extents, `survey-bait` grows a table whose first rows MySQL's page-0 survey takes for compressed
 * pages. The default is write-only alone.
 */
import type { Rng } from '../../faults/prng.js';
import { LOAD_KINDS, type LoadKind, type LoadMix } from '../results/load-kinds.js';

export type LifecycleKindName = Exclude<LoadKind, 'write-only'>;

export const DEFAULT_MIX: LoadMix = { 'write-only': 1 };

/** The kinds with a positive weight, in LOAD_KINDS order. */
export function mixKinds(mix: LoadMix): LoadKind[] {
  return LOAD_KINDS.filter((k) => (mix[k] ?? 0) > 0);
}

/** The lifecycle kinds of a mix (those that need tables of their own). */
export function lifecycleKinds(mix: LoadMix): LifecycleKindName[] {
  return mixKinds(mix).filter((k): k is LifecycleKindName => k !== 'write-only');
}

/**
 * The kind of a client's next step, in proportion to the weights. A mix of one kind draws nothing
 * from rng, so the default mix leaves every random choice of the load as it was without mixes.
 */
export function pickKind(mix: LoadMix, rng: Rng): LoadKind {
  const kinds = mixKinds(mix);
  if (kinds.length === 0) throw new Error('a load mix needs a kind with a positive weight');
  if (kinds.length === 1) return kinds[0]!;
  const total = kinds.reduce((sum, k) => sum + mix[k]!, 0);
  let draw = rng.next() * total;
  for (const k of kinds) {
    draw -= mix[k]!;
    if (draw < 0) return k;
  }
  return kinds.at(-1)!;
}

/** "write-only 4, churn 1" */
export function showMix(mix: LoadMix): string {
  return mixKinds(mix).map((k) => `${k} ${mix[k]}`).join(', ');
}

/** Whether the mix is the default, write-only alone (whatever its weight). */
export function isDefaultMix(mix: LoadMix | undefined): boolean {
  return mix === undefined || (mixKinds(mix).length === 1 && mixKinds(mix)[0] === 'write-only');
}
