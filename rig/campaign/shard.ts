/**
 * `--shard I/N`: shard I of N takes every N-th cycle of the flat ordered list, starting at the
 * I-th, so every shard gets a share of every scenario and the shards together cover each cycle
 * exactly once.
 */
import { badInput } from '../errors.js';
import type { PlannedCycle, Shard } from './types.js';

const MAX_SHARDS = 10_000;

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const fix = 'write it as I/N with 1 <= I <= N, e.g. --shard 2/3';
  if (!match) throw badInput(`--shard: '${text}' is not I/N; ${fix}`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) throw badInput(`--shard: ${count} shards is out of range; use 1 to ${MAX_SHARDS}`);
  if (index < 1 || index > count) throw badInput(`--shard: shard ${index} of ${count} does not exist; ${fix}`);
  return { index, count };
}

export function selectShard<C extends Pick<PlannedCycle, 'position'>>(cycles: C[], shard: Shard | null): C[] {
  if (!shard) return cycles;
  return cycles.filter((c) => c.position % shard.count === shard.index - 1);
}

/** How many of `cycles` each scenario has (what a shard plans to run of it). */
export function countByScenario(cycles: Pick<PlannedCycle, 'scenario'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { scenario } of cycles) counts.set(scenario, (counts.get(scenario) ?? 0) + 1);
  return counts;
}
