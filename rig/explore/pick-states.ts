/**
 * Which crash states of a recording to judge. A state is a barrier and the seed of the plan that
 * decides its pending writes' fates. `every` takes each barrier once (evenly spaced when there are
 * more than asked for), `sample` a seeded sample, `targeted` the barriers that best exercise the
 * scenario's claim (the best-scoring barriers, ties broken by the seed). States come back in recording
 * order, so the working image only ever moves forward.
 */
import { createRng } from '../../faults/prng.js';
import type { Barrier } from './barriers.js';

import type { ExplorePick as Pick } from '../results/types.js';

export interface PickedState {
  barrier: Barrier;
  planSeed: number;
  score?: number; // targeted picks: what the barrier scored
}

/** A plan seed per (campaign seed, barrier, repeat): the same state from the same inputs. */
export function planSeedFor(seed: number, barrier: number, repeat: number): number {
  return ((seed * 1_000_003 + barrier * 7919 + repeat * 104_729) >>> 0) || 1;
}

function evenly<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

function shuffled<T>(items: T[], seed: number): T[] {
  const rng = createRng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The barriers a targeted pick draws on, best first: those that score at least a quarter of the
 * best score. A barrier with one page write in flight leaves its state untorn in two plans of
 * three; one with sixteen almost never does, and repeating it with other plans explores more.
 */
function targets(barriers: Barrier[], seed: number, score: (b: Barrier) => number): { barrier: Barrier; score: number }[] {
  const scored = shuffled(barriers, seed).map((barrier) => ({ barrier, score: score(barrier) }));
  const floor = Math.max(1, Math.ceil(Math.max(0, ...scored.map((c) => c.score)) / 4));
  return scored.filter((c) => c.score >= floor).sort((a, b) => b.score - a.score);
}

/**
 * Up to n states; when asked for more states than there are barriers, a barrier is judged again
 * with another plan (sample and targeted only: `every` means each barrier once).
 */
export function pickStates(
  barriers: Barrier[],
  n: number,
  pick: Pick,
  seed: number,
  score: (b: Barrier) => number = () => 0,
): PickedState[] {
  if (!barriers.length || n < 1) return [];
  let chosen: { barrier: Barrier; score?: number }[];
  if (pick === 'every') chosen = evenly(barriers, n).map((barrier) => ({ barrier }));
  else {
    const pool = pick === 'targeted' ? targets(barriers, seed, score) : shuffled(barriers, seed).map((barrier) => ({ barrier }));
    chosen = Array.from({ length: Math.min(n, pool.length ? n : 0) }, (_, i) => pool[i % pool.length]!);
  }
  const repeats = new Map<number, number>();
  return chosen
    .map((c) => {
      const repeat = repeats.get(c.barrier.index) ?? 0;
      repeats.set(c.barrier.index, repeat + 1);
      return { barrier: c.barrier, planSeed: planSeedFor(seed, c.barrier.index, repeat), ...(c.score !== undefined ? { score: c.score } : {}) };
    })
    .sort((a, b) => a.barrier.index - b.barrier.index || a.planSeed - b.planSeed);
}
