/**
 * Stage 1, prepare: the prepared image for these settings (built once, then cached), served on a
 * fresh power-fail disk, with the server started on it.
 */
import { mkdirSync } from 'node:fs';
import { SERVER_BOUNDS } from '../../defaults.js';
import { rigFailure } from '../../errors.js';
import type { ScenarioSettings } from '../../results/types.js';
import type { ServerRuntime, StartedServer } from '../../runtime/types.js';
import type { DiskEnvironment } from '../../../faults/disk-environment.js';
import type { DiskOptions, PowerFailDisk } from '../../../faults/power-fail-disk.js';
import { startDisk } from '../../../faults/start-disk.js';
import type { CleanupStack } from '../cleanup-stack.js';
import { diskOptionsFor } from '../disk-options.js';
import { ensurePreparedImage } from '../prepared-image.js';
import { datadirOn, makeRunDir } from '../server-dirs.js';

export interface LiveServer {
  image: string; // the prepared image the disk started from
  disk: PowerFailDisk;
  server: StartedServer;
  runDir: string;
}

export interface PrepareInput {
  settings: ScenarioSettings;
  runtime: ServerRuntime;
  serverVersion: string;
  cacheRoot: string;
  diskEnvironment?: DiskEnvironment;
  cutDir: string; // where the load's disk keeps its image and, at the cut, its journal
  record?: DiskOptions['record']; // explore: the disk records every write and flush from its start
  signal?: AbortSignal;
}

export async function prepare(input: PrepareInput, cleanup: CleanupStack): Promise<LiveServer> {
  const { settings, runtime, signal } = input;
  const image = await ensurePreparedImage(settings, runtime, input.serverVersion, input.cacheRoot, signal, input.diskEnvironment);
  mkdirSync(input.cutDir, { recursive: true });
  const disk = await startDisk(diskOptionsFor(settings, input.cutDir, { fromImage: image, ...(input.record ? { record: input.record } : {}) }, input.diskEnvironment));
  cleanup.pushDisk('load disk', disk);
  const runDir = makeRunDir();
  cleanup.push('load run dir', async () => runDir.remove());
  const spec = { datadir: datadirOn(disk.target), runDir: runDir.path, settings: settings.server, signal };
  const started = await runtime.start(spec, SERVER_BOUNDS.startMs);
  if (!started.ready) {
    throw rigFailure(`the server did not start on the prepared image: ${started.errorLog.trim().split('\n').slice(-2).join(' | ')}`);
  }
  cleanup.push('load server', () => started.server.kill());
  return { image, disk, server: started.server, runDir: runDir.path };
}
