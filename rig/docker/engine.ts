/**
 * Finds a Docker engine that answers, or starts the rig's own. Order: DOCKER_HOST when set (and
 * then only it: the user chose that engine), else /var/run/docker.sock, else the rig's own engine
 * (a dockerd under the work dir, started here when the caller allows). The handle says whether we
 * started it; `stop()` ends only an engine we started or adopted from a run that is gone, never
 * one a live rig process started (that process stops it).
 */
import type Dockerode from 'dockerode';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { rigFailure } from '../errors.js';
import { ensureDockerd } from './install-docker.js';
import { claimOwnEngine, ownEngineClaimed, spawnDockerd, stopOwnEngine, waitForEngine } from './own-engine.js';
import { dockerPaths } from './paths.js';

export interface DockerEngine {
  docker: Dockerode;
  socketPath: string; // the engine's socket (or tcp address, from DOCKER_HOST)
  started: boolean; // true when the rig started this dockerd (and stop() ends it)
  stop(): Promise<void>;
}

export interface EngineOptions {
  workDir: string;
  allowStart: boolean;
  log?: (line: string) => void;
  signal?: AbortSignal;
  startTimeoutMs?: number;
  /** DOCKER_HOST: when set, the only engine to use. */
  dockerHost: string | null;
}

const PING_TIMEOUT_MS = 3000;

/** The client class, loaded (it is CommonJS) when a client is first made: a command that talks to no engine never loads it. */
const require = createRequire(import.meta.url);
const client = (): typeof Dockerode => require('dockerode') as typeof Dockerode;

function optionsFor(address: string): Dockerode.DockerOptions {
  if (address.startsWith('unix://')) return { socketPath: address.slice('unix://'.length) };
  if (address.startsWith('/')) return { socketPath: address };
  const url = new URL(address.replace(/^tcp:/, 'http:'));
  return { host: url.hostname, port: Number(url.port || 2375), protocol: 'http' };
}

/** A client for the engine at `address` (a socket path, unix:// or tcp:// address). */
export function dockerAt(address: string): Dockerode {
  return new (client())(optionsFor(address));
}

/**
 * True when the engine at `address` answers a ping within a few seconds. A socket that is not
 * there cannot answer: no client is loaded to ask it (the client and its protocols are some 170
 * modules, a quarter of a second of every local cycle's start here, and seconds in the guest).
 */
export async function pingEngine(address: string): Promise<boolean> {
  const options = optionsFor(address);
  if (options.socketPath !== undefined && !existsSync(options.socketPath)) return false;
  try {
    const probe = new (client())({ ...options, timeout: PING_TIMEOUT_MS });
    await probe.ping();
    return true;
  } catch {
    return false;
  }
}

function handle(address: string, started: boolean, stop: () => Promise<unknown>): DockerEngine {
  let stopping: Promise<void> | null = null;
  return {
    docker: dockerAt(address),
    socketPath: address.replace(/^unix:\/\//, ''),
    started,
    stop: () => (stopping ??= stop().then(() => undefined)),
  };
}

export async function connectEngine(options: EngineOptions): Promise<DockerEngine> {
  const paths = dockerPaths(options.workDir);
  const noop = async () => {};
  const chosen = options.dockerHost;
  if (chosen) {
    if (await pingEngine(chosen)) return handle(chosen, false, noop);
    throw rigFailure(`the Docker engine at DOCKER_HOST=${chosen} does not answer: start it, or unset DOCKER_HOST`);
  }
  if (await pingEngine('/var/run/docker.sock')) return handle('/var/run/docker.sock', false, noop);
  if (await pingEngine(paths.socketPath)) {
    // another rig process runs it: use it, and leave it to that process to stop
    if (await ownEngineClaimed(paths)) return handle(paths.socketPath, false, noop);
    // an engine of ours left by a run that is gone: adopt it, and stop it like one we started
    await claimOwnEngine(paths);
    return handle(paths.socketPath, true, () => stopOwnEngine(paths));
  }
  if (!options.allowStart) {
    throw rigFailure('no Docker engine answers (DOCKER_HOST unset, /var/run/docker.sock silent): start dockerd, or allow the rig to start its own');
  }
  return startEngine(options, paths);
}

async function startEngine(options: EngineOptions, paths: ReturnType<typeof dockerPaths>): Promise<DockerEngine> {
  const log = options.log ?? (() => {});
  const dockerd = await ensureDockerd(log, options.signal);
  await stopOwnEngine(paths); // a dead engine of ours may have left mounts or a stale pid file
  await mkdir(paths.root, { recursive: true });
  log(`starting dockerd (data root ${paths.dataRoot})`);
  const pid = await spawnDockerd(dockerd, paths);
  await writeFile(paths.spawnRecord, `${pid}\n`); // recorded before dockerd writes its own pid file
  await claimOwnEngine(paths);
  try {
    await waitForEngine(pid, paths, () => pingEngine(paths.socketPath), options.startTimeoutMs ?? 60000, options.signal);
  } catch (error) {
    await stopOwnEngine(paths, pid);
    throw error;
  }
  return handle(paths.socketPath, true, () => stopOwnEngine(paths, pid));
}
