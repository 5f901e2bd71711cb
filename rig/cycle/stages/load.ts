/**
 * Stage 2, load: drive the write load on the live server, arm the disk's trigger once the load has
 * commits behind it, and wait until the disk fires. At that moment the disk has captured its
 * journal and holds every further request; the load is still running against a frozen disk.
 */
import { rigFailure } from '../../errors.js';
import { checkAborted } from '../../interrupts.js';
import { startLoad, type LoadHandle } from '../../load/index.js';
import { writesPageCopies } from '../../results/doublewrite-mode.js';
import type { ScenarioSettings } from '../../results/types.js';
import type { HelperStatus } from '../../../faults/helper-status.js';
import { largest } from '../../pages/device-ranges.js';
import { doublewriteDeviceRanges } from '../../pages/doublewrite-device-ranges.js';
import { temporaryTablespaceDeviceRanges } from '../../pages/temporary-tablespace-device-ranges.js';
import type { CleanupStack } from '../cleanup-stack.js';
import { datadirOn } from '../server-dirs.js';
import type { LiveServer } from './prepare.js';

const WARM_UP_COMMITS = 250; // per connection
const WARM_UP_MAX_MS = 8000;
const MAX_COPY_RANGES = 8; // faults/helper/disk.h COPY_RANGES; the doublewrite area is 1-2 extents
const MAX_SKIP_RANGES = 32; // faults/helper/disk.h SKIP_RANGES

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
    ...(settings.load.mix ? { mix: settings.load.mix } : {}),
    seed,
    signal,
  });
  cleanup.push('load', () => load.stop());
  await warmUp(load, settings.load.connections, signal);
  checkAborted(signal); // a stopped load never reaches its commits: no 8 s wait for them
  await passOverTemporaryTablespaces(live, settings);
  const aimed = await aimAtHomeWrites(live, settings);
  await live.disk.arm(settings.disk.trigger);
  const ended = load.result().then((r) => ({ ended: r }));
  const boundMs = settings.load.maxSeconds * 1000;
  const fired = waitFired(live, aimed, boundMs).then((s) => ({ status: s }));
  const first = await Promise.race([fired, ended]);
  checkAborted(signal); // the load ended because it was told to, not for want of a cut
  const status = 'status' in first ? first.status : await live.disk.waitCut(2000);
  if (!status) {
    live.server.signalKill();
    const why = 'ended' in first ? `the load ended first (${first.ended.errors[0]?.message ?? first.ended.endedBy})` : `it did not fire within ${settings.load.maxSeconds} s`;
    throw rigFailure(`the cut never came: ${why}; lower the trigger threshold or raise load.maxSeconds`);
  }
  return { status, atMs: Date.now() - started, load };
}

/**
 * A cut that counts writes (armed, after-writes) counts none to the temporary tablespaces:
 * recovery never reads them, so a cut among them tears nothing the rig checks (MySQL 9.7 writes
 * about 45 of their pages early in a load). Their ranges are taken once, before arming; a
 * temporary tablespace that grows later has its new extents counted again.
 */
async function passOverTemporaryTablespaces(live: LiveServer, settings: ScenarioSettings): Promise<void> {
  const { kind } = settings.disk.trigger;
  if ((kind !== 'armed' && kind !== 'after-writes') || settings.disk.fs === 'none') return;
  const ranges = await temporaryTablespaceDeviceRanges(datadirOn(live.disk.target));
  for (const r of largest(ranges, MAX_SKIP_RANGES)) await live.disk.addSkipRange(r.offset, r.length);
}

/**
 * With doublewrite on, an armed cut aims at home writes whose copies are durable: the disk learns
 * the doublewrite area's device ranges, counts only page writes outside them, and does not fire
 * while a copy is still in flight. Otherwise the first batch of 16 pending page writes is often
 * fresh and undo pages, which the server writes without doublewrite (redo rebuilds them), with the
 * next batch's copies still in flight: a cut there never tests doublewrite (the exercise count).
 * RocksDB tables make few InnoDB page writes: their cut counts every large write (SST writes).
 */
async function aimAtHomeWrites(live: LiveServer, settings: ScenarioSettings): Promise<boolean> {
  if (settings.server.engine !== 'innodb' || !writesPageCopies(settings.server.doublewrite) || settings.disk.trigger.kind !== 'armed' || settings.disk.fs === 'none') return false;
  const ranges = await doublewriteDeviceRanges(datadirOn(live.disk.target), settings.server.pageSize);
  for (const r of ranges.slice(0, MAX_COPY_RANGES)) await live.disk.addCopyRange(r.offset, r.length);
  return ranges.length > 0;
}

/**
 * The aimed cut may not come (with buffered writes a batch's copies can stay in flight whenever
 * the threshold is met): after half the load's bound the disk forgets the copy ranges and the
 * plain armed count fires. The cycle's exercise record then says whether doublewrite was tested.
 */
async function waitFired(live: LiveServer, aimed: boolean, boundMs: number): Promise<HelperStatus | null> {
  if (!aimed) return live.disk.waitCut(boundMs);
  const status = await live.disk.waitCut(boundMs / 2);
  if (status) return status;
  await live.disk.clearCopyRanges();
  return live.disk.waitCut(boundMs / 2);
}

/**
 * Arms only once the load has commits behind it, so the ledger check after recovery has
 * acknowledged commits to look for (the page cleaner can fill the armed threshold within a second).
 */
async function warmUp(load: { ackedSoFar(): number }, connections: number, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + WARM_UP_MAX_MS;
  while (load.ackedSoFar() < connections * WARM_UP_COMMITS && Date.now() < until && !signal?.aborted) {
    await new Promise((r) => setTimeout(r, 50));
  }
}
