/**
 * The pristine prepared image a scenario's cycles start from: a formatted disk with an
 * initialised datadir and the loaded dataset, shut down cleanly. Built once per distinct
 * (filesystem, size, server settings, dataset, the load's prepared lifecycle tables, server) and
 * copied sparsely for each cycle.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_BOUNDS } from '../defaults.js';
import { rigFailure } from '../errors.js';
import { checkAborted } from '../interrupts.js';
import { prepareDataset } from '../load/dataset.js';
import { preparedTablesBasis } from '../load/lifecycle/prepared-tables.js';
import type { ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { startDisk } from '../../faults/start-disk.js';
import { datadirOn, makeRunDir } from './server-dirs.js';
import { diskOptionsFor } from './disk-options.js';

export function preparedImageKey(settings: ScenarioSettings, serverVersion: string): string {
  const lifecycle = preparedTablesBasis(settings.load.mix, settings.load.connections);
  // InnoDB tables keep the key images were built under before the engine was a setting
  // and flushing, which changes how the server writes pages, not what the prepared dataset holds
  const { engine, flushing: _flushing, ...innodbServer } = settings.server;
  const basis = {
    fs: settings.disk.fs,
    sizeBytes: settings.disk.sizeBytes,
    server: engine === 'innodb' ? innodbServer : { engine, ...innodbServer },
    dataset: { tables: settings.load.tables, rows: settings.load.rows },
    runtime: settings.runtime,
    image: settings.image ?? null,
    serverVersion,
    format: 2, // 2: the dataset has the history table
    ...(lifecycle ? { lifecycle } : {}), // absent for mixes without prepared tables: their key is as before
  };
  return createHash('sha256').update(JSON.stringify(basis)).digest('hex').slice(0, 16);
}

async function buildPreparedImage(
  settings: ScenarioSettings,
  runtime: ServerRuntime,
  buildDir: string,
  signal?: AbortSignal,
  environment?: DiskEnvironment,
): Promise<string> {
  const disk = await startDisk(diskOptionsFor(settings, buildDir, {}, environment));
  const runDir = makeRunDir();
  try {
    const spec = { datadir: datadirOn(disk.target), runDir: runDir.path, settings: settings.server, signal };
    mkdirSync(spec.datadir, { recursive: true });
    await runtime.initialize(spec);
    checkAborted(signal);
    const started = await runtime.start(spec, SERVER_BOUNDS.startMs);
    if (!started.ready) {
      const last = started.errorLog.trim().split('\n').slice(-3).join(' | ');
      throw rigFailure(`the server did not start on a fresh datadir while preparing the dataset: ${last}`);
    }
    try {
      await prepareDataset({ socketPath: started.server.socketPath }, { ...settings.load, engine: settings.server.engine });
    } finally {
      await started.server.stop();
    }
  } finally {
    runDir.remove();
    const report = await disk.down(); // no cut: every write reaches the image
    if (report.problems.length) throw rigFailure(`preparing the image left: ${report.problems.join('; ')}`);
  }
  return join(buildDir, 'image.img');
}

/** Path of the prepared image for these settings, building it first when the cache lacks it. */
export async function ensurePreparedImage(
  settings: ScenarioSettings,
  runtime: ServerRuntime,
  serverVersion: string,
  cacheRoot: string,
  signal?: AbortSignal,
  environment?: DiskEnvironment,
): Promise<string> {
  const key = preparedImageKey(settings, serverVersion);
  const image = join(cacheRoot, key, 'prepared.img');
  if (existsSync(image)) return image;
  try {
    mkdirSync(cacheRoot, { recursive: true });
    accessSync(cacheRoot, constants.W_OK);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw rigFailure(`the prepared image for these settings (${key}) is not in ${cacheRoot}, and that folder cannot be written (${why}): set RIG_CACHE to a folder the rig can write`);
  }
  const buildDir = join(cacheRoot, `${key}.building-${process.pid}`);
  rmSync(buildDir, { recursive: true, force: true });
  try {
    const built = await buildPreparedImage(settings, runtime, buildDir, signal, environment);
    mkdirSync(join(cacheRoot, key), { recursive: true });
    writeFileSync(join(cacheRoot, key, 'settings.json'), JSON.stringify({ settings, serverVersion }, null, 2));
    renameSync(built, image);
    return image;
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}
