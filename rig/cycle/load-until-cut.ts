/**
 * The load stage and the cut: bring the prepared image up on the power-fail disk, start the server,
 * arm the trigger, drive the write load until the disk cuts, then freeze and kill the server before
 * it can see an I/O error, and only then let the disk fail the held requests.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { rigFailure } from '../errors.js';
import { startLoad, type LoadResult } from '../load/index.js';
import type { ScenarioSettings } from '../results/types.js';
import type { ServerRuntime, StartedServer } from '../runtime/types.js';
import type { HelperStatus } from '../../faults/helper-status.js';
import { startDisk, type PowerFailDisk } from '../../faults/power-fail-disk.js';
import type { CleanupStack } from './cleanup-stack.js';
import { datadirOn, makeRunDir } from './server-dirs.js';
import { doublewriteDeviceRanges } from '../pages/doublewrite-device-ranges.js';
import { diskOptionsFor } from './disk-options.js';

const START_TIMEOUT_MS = 120_000;
const EXIT_AFTER_KILL_MS = 30_000;
const WARM_UP_COMMITS = 250; // per connection
const WARM_UP_MAX_MS = 8000;
const MAX_COPY_RANGES = 8; // faults/helper/disk.h COPY_RANGES; the doublewrite area is 1-2 extents

export interface LiveServer {
  disk: PowerFailDisk;
  server: StartedServer;
  runDir: string;
}

export async function startOnPreparedImage(
  settings: ScenarioSettings,
  runtime: ServerRuntime,
  preparedImage: string,
  dir: string,
  cleanup: CleanupStack,
  signal?: AbortSignal,
): Promise<LiveServer> {
  mkdirSync(dir, { recursive: true });
  const disk = await startDisk(diskOptionsFor(settings, dir, { fromImage: preparedImage }));
  cleanup.push('load disk', () => disk.down());
  const runDir = makeRunDir();
  cleanup.push('load run dir', async () => runDir.remove());
  const spec = { datadir: datadirOn(disk.target), runDir: runDir.path, settings: settings.server, signal };
  const started = await runtime.start(spec, START_TIMEOUT_MS);
  if (!started.ready) {
    throw rigFailure(`the server did not start on the prepared image: ${started.errorLog.trim().split('\n').slice(-2).join(' | ')}`);
  }
  cleanup.push('load server', () => started.server.kill());
  return { disk, server: started.server, runDir: runDir.path };
}

export interface CutResult {
  status: HelperStatus;
  atMs: number;
  load: LoadResult;
  errorLog: string;
}

export async function loadUntilCut(
  live: LiveServer,
  settings: ScenarioSettings,
  seed: number,
  cleanup: CleanupStack,
  signal?: AbortSignal,
): Promise<CutResult> {
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
  await aimAtHomeWrites(live, settings);
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
  const atMs = Date.now() - started;
  return { status, atMs, ...(await cutPower(live, load, cleanup)) };
}

/**
 * With doublewrite on, an armed cut aims at home writes whose copies are durable: the disk learns
 * the doublewrite area's device ranges, counts only page writes outside them, and does not fire
 * while a copy is still in flight. Otherwise the first batch of 16 pending page writes is often
 * fresh and undo pages, which the server writes without doublewrite (redo rebuilds them), with the
 * next batch's copies still in flight: a cut there never tests doublewrite (the exercise count).
 */
async function aimAtHomeWrites(live: LiveServer, settings: ScenarioSettings): Promise<void> {
  if (!settings.server.doublewrite || settings.disk.trigger.kind !== 'armed' || settings.disk.fs === 'none') return;
  const ranges = await doublewriteDeviceRanges(datadirOn(live.disk.target), settings.server.pageSize);
  for (const r of ranges.slice(0, MAX_COPY_RANGES)) await live.disk.addCopyRange(r.offset, r.length);
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

/** Freeze and kill the server, then fail the held I/O so it can die, then take the disk down. */
async function cutPower(
  live: LiveServer,
  load: { result(): Promise<LoadResult> },
  cleanup: CleanupStack,
): Promise<{ load: LoadResult; errorLog: string }> {
  live.server.signalKill();
  await live.disk.release();
  const exit = await live.server.waitForExit(EXIT_AFTER_KILL_MS);
  if (!exit) throw rigFailure(`the server did not die within ${EXIT_AFTER_KILL_MS / 1000} s of SIGKILL after the cut`);
  const result = await load.result();
  const errorLog = await live.server.errorLog();
  await cleanup.runNamed('load');
  await cleanup.runNamed('load server');
  await cleanup.runNamed('load disk');
  await cleanup.runNamed('load run dir');
  return { load: result, errorLog };
}
