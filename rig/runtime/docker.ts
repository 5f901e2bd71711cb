/**
 * The `docker` runtime: the server runs from an image, in a container with the datadir (on the
 * disk's mount) and the run dir bind-mounted, no network, every capability dropped. The image's
 * entrypoint is bypassed: the rig runs the server itself with the same settings as the local
 * runtime, so no temporary initialisation server can answer the readiness check. The container
 * runs as the datadir's owner (root with --user=root when root owns it), so it writes the datadir
 * without any capability. Public API: createDockerRuntime(); sweepContainers() for cleanup.
 */
import type Dockerode from 'dockerode';
import { chown, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_BOUNDS } from '../defaults.js';
import { rigFailure } from '../errors.js';
import { parseServerVersion } from './find-server-binary.js';
import { initializeArgs, serverArgs, validateServerSettings } from './server-args.js';
import { checkSocketPath, prepareRunDir, checkInitialized } from './preflight.js';
import { findRigCause } from './rig-cause.js';
import { ROCKSDB_PROBE_ARGS, readRocksdbProbe } from './rocksdb-support.js';
import { CONTAINER_DATADIR, CONTAINER_RUNDIR, containerOptions, removeContainer, runToCompletion } from './docker-container.js';
import { inspectServerImage, type ServerImage } from './docker-image.js';
import { DockerServer, exitFromCode } from './docker-server.js';
import type { ServerIdentity } from '../results/server-identity.js';
import type { ServerRuntime, ServerSpec, StartOutcome } from './types.js';
import { notReady, stallCheck, type StallCheck } from './stall-check.js';
import { waitForReady, type ReadyResult } from './wait-for-ready.js';

export { sweepContainers } from './docker-sweep.js';

export interface DockerRuntimeOptions {
  docker: Dockerode;
  image: string; // e.g. powercut-rig/mariadb-offline:10.11
  runId?: string; // the value of every container's powercut-rig.run label
}

/** The server runs as the datadir's owner; root needs --user=root, anyone else must not pass it. */
function asOwner(args: string[], uid: number): string[] {
  const rest = args.filter((arg) => !arg.startsWith('--user='));
  return uid === 0 ? [...rest, '--user=root'] : rest;
}

export class DockerRuntime implements ServerRuntime {
  readonly name = 'docker' as const;
  readonly runId: string;
  readonly imageTag: string;
  private info: Promise<ServerImage> | null = null;
  private about: Promise<{ server: string; version: string }> | null = null;
  private rocksdb: Promise<boolean> | null = null;

  constructor(private readonly options: DockerRuntimeOptions) {
    this.runId = options.runId ?? `${process.pid}-${Date.now().toString(36)}`;
    this.imageTag = options.image;
  }

  image(): Promise<ServerImage> {
    this.info ??= inspectServerImage(this.options.docker, this.options.image);
    return this.info;
  }

  /** The server in the image and its version, asked once (a probe container runs `--version`). */
  describe(): Promise<{ server: string; version: string }> {
    this.about ??= this.probeVersion();
    this.about.catch(() => (this.about = null)); // a failed probe is asked again next time
    return this.about;
  }

  private async identity(): Promise<ServerIdentity> {
    const [image, about] = await Promise.all([this.image(), this.describe()]);
    return { flavor: image.flavor, version: about.version };
  }

  private async probeVersion(): Promise<{ server: string; version: string }> {
    const image = await this.image();
    const plan = { image: image.image, runId: this.runId, role: 'probe' as const, command: [image.server, '--version'], user: '0:0' };
    const run = await runToCompletion(this.options.docker, plan, 30_000);
    if (run.exitCode !== 0) throw rigFailure(`${image.server} --version failed in ${image.image}: ${run.output.trim()}`);
    return { server: image.server, version: parseServerVersion(run.output).version };
  }

  /** Whether the image's server loads ha_rocksdb (a probe container runs it with `--help`), asked once. */
  hasRocksdb(): Promise<boolean> {
    this.rocksdb ??= this.probeRocksdb();
    this.rocksdb.catch(() => (this.rocksdb = null));
    return this.rocksdb;
  }

  private async probeRocksdb(): Promise<boolean> {
    const image = await this.image();
    if (image.flavor !== 'mariadb') return false;
    const plan = { image: image.image, runId: this.runId, role: 'probe' as const, command: [image.server, ...ROCKSDB_PROBE_ARGS], user: '0:0' };
    const run = await runToCompletion(this.options.docker, plan, 60_000);
    if (run.exitCode === null) throw rigFailure(`${image.server} --help did not finish in 60 s in ${image.image}`);
    return readRocksdbProbe(run.output);
  }

  async initialize(spec: ServerSpec): Promise<void> {
    validateServerSettings(spec.settings);
    const image = await this.image();
    const entries = (await readdir(spec.datadir).catch(() => null))?.filter((name) => name !== 'lost+found');
    if (!entries) throw rigFailure(`datadir ${spec.datadir} does not exist`);
    if (entries.length > 0) throw rigFailure(`datadir ${spec.datadir} is not empty: initialize needs an empty one`);
    const owner = await stat(spec.datadir);
    const args = asOwner(initializeArgs(CONTAINER_DATADIR, spec.settings, await this.identity()), owner.uid);
    const plan = { image: image.image, runId: this.runId, role: 'install' as const, command: [image.installer, ...args], user: `${owner.uid}:${owner.gid}`, datadir: spec.datadir };
    const run = await runToCompletion(this.options.docker, plan, SERVER_BOUNDS.initializeMs, spec.signal);
    if (run.exitCode === 0) return;
    const cause = findRigCause(run.output);
    if (cause?.reason === 'permission denied' || cause?.reason === 'read-only file system') {
      throw rigFailure(`datadir ${spec.datadir} is not writable by uid ${owner.uid} in the container (${cause.line}): make it writable by its owner`);
    }
    const tail = run.output.trim().split('\n').slice(-5).join(' | ');
    const why = run.exitCode === null ? `did not finish in ${SERVER_BOUNDS.initializeMs / 1000} s` : `exit ${run.exitCode}`;
    throw rigFailure(`initialising datadir ${spec.datadir} in ${image.image} failed (${why}): ${tail}`);
  }

  async start(spec: ServerSpec, timeoutMs: number, stallMs?: number): Promise<StartOutcome> {
    const image = await this.image();
    const socketPath = join(spec.runDir, 'mysqld.sock');
    checkSocketPath(socketPath);
    await prepareRunDir(spec.runDir);
    await checkInitialized(spec.datadir);
    const server = await this.createServer(spec, image, socketPath);
    const stall = stallCheck(server.pid, spec.datadir, stallMs);
    const ready = await waitForReady({ socketPath, timeoutMs, exited: server.exited(), signal: spec.signal, ...(stall ? { stall } : {}) });
    if (ready === 'ready') return { ready: true, server };
    return this.refused(server, ready, stall);
  }

  private async createServer(spec: ServerSpec, image: ServerImage, socketPath: string): Promise<DockerServer> {
    const owner = await stat(spec.datadir);
    if (owner.uid !== 0) await chown(spec.runDir, owner.uid, owner.gid);
    const layout = { datadir: CONTAINER_DATADIR, socketPath: `${CONTAINER_RUNDIR}/mysqld.sock`, pidFile: `${CONTAINER_RUNDIR}/mysqld.pid`, tmpdir: CONTAINER_RUNDIR };
    const args = [...asOwner(serverArgs(layout, spec.settings, await this.identity()), owner.uid), `--log-error=${CONTAINER_RUNDIR}/error.log`];
    const logPath = join(spec.runDir, 'error.log');
    const logOffset = (await stat(logPath).catch(() => null))?.size ?? 0;
    const plan = { image: image.image, runId: this.runId, role: 'server' as const, command: [image.server, ...args], user: `${owner.uid}:${owner.gid}`, datadir: spec.datadir, runDir: spec.runDir };
    const container = await this.options.docker.createContainer(containerOptions(plan));
    try {
      await container.start();
      const pid = (await container.inspect()).State.Pid || null;
      return new DockerServer({ container, pid, socketPath, logPath, logOffset });
    } catch (error) {
      await removeContainer(container);
      throw rigFailure(`server container from ${image.image} did not start: ${(error as Error).message}`, error);
    }
  }

  /** Not ready: the container goes (its log stays in the run dir); a rig cause is a rig failure. */
  private async refused(server: DockerServer, why: Exclude<ReadyResult, 'ready'>, stall: StallCheck | null): Promise<StartOutcome> {
    if (why !== 'exited') server.signalKill();
    const exit = (await server.waitForExit(15_000)) ?? exitFromCode(137);
    const errorLog = await server.errorLog();
    await server.kill();
    if (why === 'aborted') throw rigFailure('server start was aborted');
    const cause = why === 'exited' ? findRigCause(errorLog) : null;
    if (cause) throw rigFailure(`the server could not start because of the rig (${cause.reason}): ${cause.line}`);
    return { ready: false, exitCode: exit.exitCode, signal: exit.signal, errorLog, ...notReady(why, stall) };
  }
}

export function createDockerRuntime(options: DockerRuntimeOptions): DockerRuntime {
  return new DockerRuntime(options);
}

