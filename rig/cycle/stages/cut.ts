/**
 * Stage 3, cut: the disk has fired and holds the server's I/O. Freeze and kill the server before
 * it can see an I/O error, only then let the disk fail the held requests (a process blocked in
 * block I/O takes its SIGKILL only when that I/O completes), and take the load's disk down. What
 * the disk captured at the cut (image and journal) stays in the cut folder.
 */
import { rigFailure } from '../../errors.js';
import type { LoadResult } from '../../load/index.js';
import type { HelperStatus } from '../../../faults/helper-status.js';
import type { CleanupStack } from '../cleanup-stack.js';
import type { Fired } from './load.js';
import type { LiveServer } from './prepare.js';

const EXIT_AFTER_KILL_MS = 30_000;

export interface CutResult {
  status: HelperStatus;
  atMs: number;
  load: LoadResult;
  errorLog: string; // the load server's log up to its death
}

export async function cutPower(live: LiveServer, fired: Fired, cleanup: CleanupStack): Promise<CutResult> {
  live.server.signalKill();
  await live.disk.release();
  const exit = await live.server.waitForExit(EXIT_AFTER_KILL_MS);
  if (!exit) throw rigFailure(`the server did not die within ${EXIT_AFTER_KILL_MS / 1000} s of SIGKILL after the cut`);
  const load = await fired.load.result();
  const errorLog = await live.server.errorLog();
  await cleanup.runNamed('load');
  await cleanup.runNamed('load server');
  await cleanup.runNamed('load disk');
  await cleanup.runNamed('load run dir');
  // a dm disk counts its pending writes exactly only from its log, once it is down
  return { status: live.disk.settledStatus(fired.status), atMs: fired.atMs, load, errorLog };
}
