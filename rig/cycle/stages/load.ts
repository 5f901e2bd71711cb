/**
 * Stage 2, load: drive the write load on the live server, arm the disk's trigger once the load has
 * commits behind it, and wait until the disk fires. At that moment the disk has captured its
 * journal and holds every further request; the load is still running against a frozen disk.
 */
import { rigFailure } from '../../errors.js';
import { startLoad, type LoadHandle } from '../../load/index.js';
import type { ScenarioSettings } from '../../results/types.js';
import type { HelperStatus } from '../../../faults/helper-status.js';
import type { CleanupStack } from '../cleanup-stack.js';
import type { LiveServer } from './prepare.js';

const WARM_UP_COMMITS = 250; // per connection
const WARM_UP_MAX_MS = 8000;

export interface Fired {
  status: HelperStatus;
  atMs: number; // since the load started
  load: LoadHandle;
}

export async function loadUntilFired(
  live: LiveServer,
  settings: ScenarioSettings,
  seed: number,
  cleanup: CleanupStack,
  signal?: AbortSignal,
): Promise<Fired> {
  const started = Date.now();
  const load = startLoad(settings.load.kind, {
    socketPath: live.server.socketPath,
    connections: settings.load.connections,
    tables: settings.load.tables,
    rows: settings.load.rows,
    seed,
    signal,
  });
  cleanup.push('load', () => load.stop());
  await warmUp(load, settings.load.connections);
  await live.disk.arm(settings.disk.trigger);
  const ended = load.result().then((r) => ({ ended: r }));
  const fired = live.disk.waitCut(settings.load.maxSeconds * 1000).then((s) => ({ status: s }));
  const first = await Promise.race([fired, ended]);
  const status = 'status' in first ? first.status : await live.disk.waitCut(2000);
  if (!status) {
    live.server.signalKill();
    const why = 'ended' in first ? `the load ended first (${first.ended.errors[0]?.message ?? first.ended.endedBy})` : `it did not fire within ${settings.load.maxSeconds} s`;
    throw rigFailure(`the cut never came: ${why}; lower the trigger threshold or raise load.maxSeconds`);
  }
  return { status, atMs: Date.now() - started, load };
}

/**
 * Arms only once the load has commits behind it, so the ledger check after recovery has
 * acknowledged commits to look for (the page cleaner can fill the armed threshold within a second).
 */
async function warmUp(load: { ackedSoFar(): number }, connections: number): Promise<void> {
  const until = Date.now() + WARM_UP_MAX_MS;
  while (load.ackedSoFar() < connections * WARM_UP_COMMITS && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
  }
}
