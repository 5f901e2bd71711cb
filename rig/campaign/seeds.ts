/**
 * Per-cycle seeds. A cycle's seed depends only on (campaign seed, scenario name, cycle number),
 * never on which shard runs it or what ran before, so sharded and unsharded runs agree.
 */
import { createHash } from 'node:crypto';

/** A 32-bit seed for cycle `cycle` (1-based) of `scenario`. */
export function deriveCycleSeed(campaignSeed: number, scenario: string, cycle: number): number {
  const digest = createHash('sha256').update(`${campaignSeed}\0${scenario}\0${cycle}`).digest();
  return digest.readUInt32BE(0);
}

/** Seeds for cycles 1..cycles: the scenario's explicit list first, derived seeds after it. */
export function cycleSeeds(campaignSeed: number, scenario: string, cycles: number, explicit: number[] = []): number[] {
  return Array.from({ length: cycles }, (_, i) => explicit[i] ?? deriveCycleSeed(campaignSeed, scenario, i + 1));
}
