/**
 * The `local` runtime: the host's mariadbd (or mysqld), started by the rig's command runner
 * (faults/run-command.ts), on a unix socket only.
 * Public API: createLocalRuntime(); the StartedServer it returns; sweepLocalServer() for cleanup.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { DATADIR_SLACK_BYTES, SERVER_BOUNDS } from '../defaults.js';
import { rigFailure } from '../errors.js';
import { readSize } from '../../faults/sizes.js';
import type { ServerRuntime, ServerSpec, StartOutcome } from './types.js';
import { findServerBinary, type ServerBinary } from './find-server-binary.js';
import { initializeArgs, serverArgs, validateServerSettings } from './server-args.js';
import {
  checkFreeSpace,
  checkDatadirUnused,
  checkInitialized,
  checkSocketPath,
  checkWritableDir,
  prepareRunDir,
} from './preflight.js';
import { findRigCause } from './rig-cause.js';
import { ROCKSDB_PROBE_ARGS, readRocksdbProbe } from './rocksdb-support.js';
import { LocalServer, sendSignal } from './local-server.js';
import { startProcess } from '../../faults/run-command.js';
import { notReady, stallCheck, type StallCheck } from './stall-check.js';
import { waitForReady, type ReadyResult } from './wait-for-ready.js';

export { LocalServer, SERVER_PID_FILE, readRecordedPid } from './local-server.js';
export { sweepLocalServer } from './sweep-local-server.js';
export { connectToServer, closeQuietly, type ServerEndpoint } from './connect.js';
export { MAX_SOCKET_PATH_BYTES } from './preflight.js';

const MIN_FREE_TO_START = 16 * 1048576;

/** Where the runtime puts a server's files in its run directory. */
export function localLayout(spec: ServerSpec) {
  return {
    datadir: spec.datadir,
    socketPath: join(spec.runDir, 'mysqld.sock'),
    pidFile: join(spec.runDir, 'mysqld.pid'),
    tmpdir: spec.runDir,
    errorLogPath: join(spec.runDir, 'error.log'),
  };
}

export class LocalRuntime implements ServerRuntime {
  readonly name = 'local' as const;
  private binary: Promise<ServerBinary> | null = null;
  private rocksdb: Promise<boolean> | null = null;

  /** `binaryPath`: a server binary of one's own; default: the host's (find-server-binary.ts). */
  constructor(private readonly binaryPath?: string) {}

  /** The binary, found once per runtime. */
  server(): Promise<ServerBinary> {
    this.binary ??= findServerBinary(this.binaryPath);
    return this.binary;
  }

  async describe(): Promise<{ server: string; version: string }> {
    const binary = await this.server();
    return { server: binary.path.split('/').pop() ?? binary.path, version: binary.version };
  }

  hasRocksdb(): Promise<boolean> {
    this.rocksdb ??= this.probeRocksdb();
    return this.rocksdb;
  }

  private async probeRocksdb(): Promise<boolean> {
    const binary = await this.server();
    if (binary.flavor !== 'mariadb') return false;
    const result = await execa(binary.path, ROCKSDB_PROBE_ARGS, { reject: false, all: true, timeout: 60_000 });
    if (result.timedOut) throw rigFailure(`${binary.path} --help did not finish in 60 s`);
    return readRocksdbProbe(result.all ?? '');
  }

  async initialize(spec: ServerSpec): Promise<void> {
    validateServerSettings(spec.settings);
    const binary = await this.server();
    await checkWritableDir(spec.datadir, 'datadir');
    const entries = (await readdir(spec.datadir)).filter((name) => name !== 'lost+found');
    if (entries.length > 0) throw rigFailure(`datadir ${spec.datadir} is not empty: initialize needs an empty one`);
    await checkFreeSpace(spec.datadir, (readSize(spec.settings.redoSize) ?? 0) + DATADIR_SLACK_BYTES, 'datadir');
    const tool = binary.flavor === 'mariadb' ? binary.installDb : binary.path;
    if (!tool) throw rigFailure('mariadb-install-db was not found: install mariadb-server (make apt)');
    const result = await execa(tool, initializeArgs(spec.datadir, spec.settings, binary), {
      reject: false,
      all: true,
      timeout: SERVER_BOUNDS.initializeMs,
      cancelSignal: spec.signal,
    });
    if (result.failed) {
      const tail = (result.all ?? '').split('\n').slice(-15).join('\n');
      throw rigFailure(`initialising datadir ${spec.datadir} failed (${result.shortMessage}):\n${tail}`);
    }
  }

  async start(spec: ServerSpec, timeoutMs: number, stallMs?: number): Promise<StartOutcome> {
    const binary = await this.server();
    const layout = localLayout(spec);
    const args = serverArgs(layout, spec.settings, binary);
    await this.preflight(spec, layout.socketPath);
    if (spec.signal?.aborted) throw rigFailure('server start was aborted before it began');
    const server = await spawnServer(binary.path, args, spec, layout);
    const stall = stallCheck(server.pid, spec.datadir, stallMs);
    const ready = await waitForReady({
      socketPath: layout.socketPath,
      timeoutMs,
      exited: server.exited,
      signal: spec.signal,
      ...(stall ? { stall } : {}),
    });
    if (ready === 'ready') return { ready: true, server };
    return refused(server, ready, stall);
  }

  private async preflight(spec: ServerSpec, socketPath: string): Promise<void> {
    checkSocketPath(socketPath);
    await prepareRunDir(spec.runDir);
    await checkWritableDir(spec.datadir, 'datadir');
    await checkInitialized(spec.datadir);
    await checkDatadirUnused(spec.datadir);
    await checkFreeSpace(spec.datadir, MIN_FREE_TO_START, 'datadir');
  }
}

async function spawnServer(
  path: string,
  args: string[],
  spec: ServerSpec,
  layout: ReturnType<typeof localLayout>,
): Promise<LocalServer> {
  const logOffset = existsSync(layout.errorLogPath) ? statSync(layout.errorLogPath).size : 0; // each start appends; errorLog() reads its part
  // The server writes its log straight into the file (no pipe through the rig, so it keeps
  // logging if the rig dies). It is started by the rig's command runner: a spawn from the rig
  // itself costs time in proportion to the rig's memory (faults/command-runner.ts).
  const started = await startProcess(path, args, { logPath: layout.errorLogPath, append: true }).catch((error: Error) => {
    throw rigFailure(error.message);
  });
  const proc = {
    exited: started.exited,
    pid: started.pid,
    socketPath: layout.socketPath,
    runDir: spec.runDir,
    logPath: layout.errorLogPath,
    logOffset,
    signal: spec.signal,
  };
  return await LocalServer.record(proc).catch(async (error: unknown) => {
    sendSignal(started.pid, 'SIGKILL'); // no record, no process: never leave one the sweep cannot find
    await started.exited;
    throw rigFailure(`could not record the server's pid in ${spec.runDir}`, error);
  });
}

/** Not ready: make sure the process is gone, then tell a rig cause from the server's refusal. */
async function refused(server: LocalServer, why: Exclude<ReadyResult, 'ready'>, stall: StallCheck | null): Promise<StartOutcome> {
  if (why !== 'exited') await server.kill();
  const exit = await server.exited;
  const errorLog = await server.errorLog();
  if (why === 'aborted') throw rigFailure('server start was aborted');
  const cause = why === 'exited' ? findRigCause(errorLog) : null;
  if (cause) throw rigFailure(`the server could not start because of the rig (${cause.reason}): ${cause.line}`);
  return { ready: false, exitCode: exit.exitCode, signal: exit.signal, errorLog, ...notReady(why, stall) };
}

export function createLocalRuntime(binaryPath?: string): LocalRuntime {
  return new LocalRuntime(binaryPath);
}
