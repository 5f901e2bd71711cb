/**
 * Checks made before the server is started, so that a start which would fail because of the rig
 * (socket path, datadir, space) is reported as a rig failure and never judged as the server's.
 */
import { readdirSync } from 'node:fs';
import { mkdir, open, realpath, stat, statfs, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { processCommandLine } from '../../faults/system.js';
import { rigFailure } from '../errors.js';

/** sun_path holds 108 bytes including the terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = 107;

export function checkSocketPath(socketPath: string): void {
  const bytes = Buffer.byteLength(socketPath);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw rigFailure(
      `the server's socket path is ${bytes} bytes, over the ${MAX_SOCKET_PATH_BYTES} a unix socket ` +
        `allows (${socketPath}): use a shorter work directory`,
    );
  }
}

/** The directory exists, and a file can be created, written, synced and removed in it. */
export async function checkWritableDir(dir: string, what: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw rigFailure(`${what} ${dir} cannot be used: ${error.code ?? error.message}`, error);
  });
  if (!info.isDirectory()) throw rigFailure(`${what} ${dir} is not a directory`);
  const probe = join(dir, `.rig-probe-${process.pid}`);
  try {
    const handle = await open(probe, 'w');
    try {
      await handle.write(Buffer.alloc(4096));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await unlink(probe);
  } catch (error) {
    await unlink(probe).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const why = code === 'ENOSPC' ? 'no space left' : `not writable (${code})`;
    throw rigFailure(`${what} ${dir} is ${why}`, error);
  }
}

export async function checkFreeSpace(dir: string, minBytes: number, what: string): Promise<void> {
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (free < minBytes) {
    const mib = (n: number) => `${Math.floor(n / 1048576)} MiB`;
    throw rigFailure(`${what} ${dir} has ${mib(free)} free, the server needs at least ${mib(minBytes)}`);
  }
}

/** The run directory is the rig's own: create it if needed, then check it like the datadir. */
export async function prepareRunDir(runDir: string): Promise<void> {
  await mkdir(runDir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw rigFailure(`run directory ${runDir} cannot be created: ${error.code ?? error.message}`, error);
  });
  await checkWritableDir(runDir, 'run directory');
}

/** An initialised datadir holds the system schema; starting on anything else is the rig's mistake. */
export async function checkInitialized(datadir: string): Promise<void> {
  const mysqlDir = await stat(join(datadir, 'mysql')).catch(() => null);
  if (!mysqlDir?.isDirectory()) {
    throw rigFailure(`datadir ${datadir} is not initialised (no mysql/ schema): initialize it first`);
  }
}

/**
 * No live server already runs on this datadir (its lock would make the new one retry for about
 * half a minute and then give up). Reads /proc only, and synchronously: a /proc file is read
 * without waiting on any device, and a promise per process cost about 30 ms of a core per start
 * (a crash state's share of its recovery) where this costs under 2 ms.
 */
export async function checkDatadirUnused(datadir: string): Promise<void> {
  const paths = new Set([datadir, await realpath(datadir).catch(() => datadir)].map((p) => p.replace(/\/+$/, '')));
  for (const entry of procEntries()) {
    if (!/^\d+$/.test(entry)) continue;
    const datadirArg = processCommandLine(Number(entry)).find((arg) => arg.startsWith('--datadir='));
    if (datadirArg && paths.has(datadirArg.slice('--datadir='.length).replace(/\/+$/, ''))) {
      throw rigFailure(`process ${entry} already runs a server on datadir ${datadir}: stop it first`);
    }
  }
}

function procEntries(): string[] {
  try {
    return readdirSync('/proc');
  } catch {
    return [];
  }
}
