/**
 * The Docker engine the rig starts itself when none answers: dockerd with its own data root, exec
 * root, unix socket and pid file under the rig's work dir, and no bridge, iptables or forwarding
 * (none is possible or needed here: server containers run with no network). Stopping it ends
 * dockerd, the containerd it manages, and unmounts what they left under those roots.
 */
import { spawn } from 'node:child_process';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentOwner, formatOwner, ownerAlive, readOwner } from '../process-owner.js';
import { rigFailure } from '../errors.js';
import type { DockerPaths } from './paths.js';
import { endProcess, isOurProcess, killOrphanShims, readPid, removeFile, unmountUnder } from './process-records.js';
import { checkAborted } from '../interrupts.js';

export function dockerdArgs(paths: DockerPaths): string[] {
  return [
    `--data-root=${paths.dataRoot}`,
    `--exec-root=${paths.execRoot}`,
    `--host=unix://${paths.socketPath}`,
    `--pidfile=${paths.pidFile}`,
    '--iptables=false',
    '--ip-forward=false',
    '--ip-masq=false',
    '--bridge=none',
    '--log-level=warn',
  ];
}

/** Spawns dockerd detached (so Ctrl-C reaches the rig first, which then stops it) and returns its pid. */
export async function spawnDockerd(dockerd: string, paths: DockerPaths): Promise<number> {
  await mkdir(paths.root, { recursive: true });
  await removeFile(paths.socketPath);
  const log = await open(paths.logFile, 'a');
  try {
    const child = spawn(dockerd, dockerdArgs(paths), {
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
    });
    child.unref();
    const pid = child.pid;
    if (pid === undefined) throw rigFailure(`could not start ${dockerd}`);
    return pid;
  } finally {
    await log.close();
  }
}

/** Waits (bounded) until `ping` answers; fails early with dockerd's last log line if it exits. */
export async function waitForEngine(
  pid: number,
  paths: DockerPaths,
  ping: () => Promise<boolean>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    checkAborted(signal);
    if (await ping()) return;
    if (!(await isOurProcess(pid, paths.dataRoot))) {
      throw rigFailure(`dockerd exited before it answered: ${await lastLogLine(paths)} (log: ${paths.logFile})`);
    }
    await sleep(250);
  }
  throw rigFailure(`dockerd did not answer on ${paths.socketPath} within ${timeoutMs / 1000} s (log: ${paths.logFile})`);
}

async function lastLogLine(paths: DockerPaths): Promise<string> {
  const text = await readFile(paths.logFile, 'utf8').catch(() => '');
  return text.trim().split('\n').pop() ?? 'no log';
}

/** What stopping the engine took away. */
export interface EngineStopReport {
  dockerd: number[]; // pids ended
  containerd: number | null;
  shims: number; // containerd shims (and their servers) of a dockerd that died first
  unmounted: string[];
}

/** Records that this process now uses the engine under `paths` (it started or adopted it). */
export async function claimOwnEngine(paths: DockerPaths): Promise<void> {
  await writeFile(paths.ownerRecord, `${formatOwner(currentOwner())}\n`);
}

/** Whether the process that last claimed the engine under `paths` still runs. */
export async function ownEngineClaimed(paths: DockerPaths): Promise<boolean> {
  const owner = readOwner(await readFile(paths.ownerRecord, 'utf8').catch(() => null));
  return owner !== null && ownerAlive(owner);
}

/**
 * Ends the engine recorded under `paths` (if its pid is still our dockerd), then the containerd it
 * managed, then lazily unmounts leftovers (dockerd's netns mount, its data-root bind). Safe to call
 * when nothing runs; this is also what a cleanup sweep calls.
 */
export async function stopOwnEngine(paths: DockerPaths, knownPid?: number): Promise<EngineStopReport> {
  const report: EngineStopReport = { dockerd: [], containerd: null, shims: 0, unmounted: [] };
  const pids = [knownPid ?? null, await readPid(paths.pidFile), await readPid(paths.spawnRecord)];
  for (const pid of new Set(pids)) {
    if (pid !== null && (await isOurProcess(pid, paths.dataRoot))) {
      await endProcess(pid, 30000);
      report.dockerd.push(pid);
    }
  }
  const containerd = await readPid(paths.containerdPidFile);
  if (containerd !== null && (await isOurProcess(containerd, paths.execRoot))) {
    await endProcess(containerd, 10000);
    report.containerd = containerd;
  }
  report.shims = await killOrphanShims(`${paths.execRoot}/containerd/containerd.sock`);
  report.unmounted.push(...(await unmountUnder(paths.execRoot)), ...(await unmountUnder(paths.dataRoot)));
  for (const file of [paths.pidFile, paths.spawnRecord, paths.socketPath, paths.ownerRecord]) await removeFile(file);
  return report;
}
