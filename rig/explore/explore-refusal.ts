/** Settings an exploration cannot judge honestly, found before anything runs. */
import { lifecycleKinds } from '../load/load-mix.js';
import type { ScenarioSettings } from '../results/types.js';

/**
 * Explore holds the ledger to each barrier's moment through the commits' timeline; lifecycle steps
 * keep no such timeline, so their ledger could only be checked against the end of the run.
 */
export function exploreRefusal(settings: ScenarioSettings): string | null {
  const kinds = settings.load.mix ? lifecycleKinds(settings.load.mix) : [];
  if (kinds.length) return `explore checks the write-only ledger at each barrier, and the lifecycle kinds in load.mix (${kinds.join(', ')}) keep no timeline: drop them, or run live cycles (mode: live)`;
  return null;
}
