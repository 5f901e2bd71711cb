/** Settings an exploration cannot judge honestly, found before anything runs. */
import { lifecycleKinds } from '../load/load-mix.js';
import type { ScenarioSettings } from '../results/types.js';

/**
 * A durable cache makes a write durable as it completes, which the barriers (flushes) do not
 * show. Explore holds the ledger to each barrier's moment through the commits' timeline; lifecycle steps
 * keep no such timeline, so their ledger could only be checked against the end of the run.
 */
export function exploreRefusal(settings: ScenarioSettings): { key: string; message: string } | null {
  if (settings.disk.model.cache === 'durable') {
    return { key: 'disk.profile', message: `explore builds crash states from the writes after each flush, and profile '${settings.disk.profile}' has a durable cache (a write is durable once it completes, whatever the flushes): use a profile with a volatile cache, or run live cycles (mode: live)` };
  }
  const kinds = settings.load.mix ? lifecycleKinds(settings.load.mix) : [];
  if (kinds.length) return { key: 'load.mix', message: `explore checks the write-only ledger at each barrier, and the lifecycle kinds in load.mix (${kinds.join(', ')}) keep no timeline: drop them, or run live cycles (mode: live)` };
  return null;
}
