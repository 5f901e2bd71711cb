/**
 * A running host server process (the `local` runtime's StartedServer): its pid is recorded in
 * runDir/server.pid while it lives, so `rig cleanup` can find it after the rig itself was killed.
 */
import { open, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcessExit } from '../../faults/run-command.js';
import { SERVER_BOUNDS } from '../defaults.js';
import { rigFailure } from '../errors.js';
import type { ServerExit, StartedServer } from './types.js';
import { closeQuietly, connectToServer } from './connect.js';

export const SERVER_PID_FILE = 'server.pid';
const TERM_WAIT_MS = 20_000; // after SIGTERM, once SHUTDOWN did not end the server within its bound

export interface LocalServerProcess {
  exited: Promise<ProcessExit>;
  pid: number;
  socketPath: string;
  runDir: string;
  logPath: string;
  logOffset: number; // where this start's part of the (appended) error log begins
  signal?: AbortSignal;
}

export class LocalServer implements StartedServer {
  readonly socketPath: string;
  readonly pid: number;
  private readonly exit: Promise<ServerExit>;
  private exitSeen: ServerExit | null = null;
  private stopping: Promise<void> | null = null;

  constructor(private readonly proc: LocalServerProcess) {
    this.socketPath = proc.socketPath;
    this.pid = proc.pid;
    const onAbort = () => this.signalKill();
    proc.signal?.addEventListener('abort', onAbort, { once: true });
    if (proc.signal?.aborted) onAbort();
    this.exit = proc.exited.catch((): ServerExit => ({ exitCode: null, signal: null })).then(async (exit) => {
      this.exitSeen = exit;
      proc.signal?.removeEventListener('abort', onAbort);
      await unlink(join(proc.runDir, SERVER_PID_FILE)).catch(() => undefined);
      return exit;
    });
  }

  /** Records the pid before anything else can go wrong. */
  static async record(proc: LocalServerProcess): Promise<LocalServer> {
    await writeFile(join(proc.runDir, SERVER_PID_FILE), `${proc.pid}\n`);
    return new LocalServer(proc);
  }

  get exited(): Promise<ServerExit> {
    return this.exit;
  }

  async errorLog(): Promise<string> {
    const handle = await open(this.proc.logPath, 'r').catch(() => null);
    if (!handle) return '';
    try {
      const { size } = await handle.stat();
      const length = Math.max(0, size - this.proc.logOffset);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, this.proc.logOffset);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  }

  signalKill(): void {
    if (this.exitSeen) return;
    if (sendSignal(this.pid, 'SIGSTOP')) sendSignal(this.pid, 'SIGKILL');
  }

  async waitForExit(timeoutMs: number): Promise<ServerExit | null> {
    if (this.exitSeen) return this.exitSeen;
    const timer = new AbortController();
    const timedOut = sleep(timeoutMs, null, { signal: timer.signal }).catch(() => null);
    try {
      return await Promise.race([this.exit, timedOut]);
    } finally {
      timer.abort();
    }
  }

  async kill(): Promise<void> {
    this.signalKill();
    const exit = await this.waitForExit(SERVER_BOUNDS.killMs);
    if (!exit) {
      throw rigFailure(
        `server pid ${this.pid} was sent SIGKILL but had not exited after ${SERVER_BOUNDS.killMs / 1000} s ` +
          '(blocked in I/O the disk still holds?)',
      );
    }
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    if (this.exitSeen) return;
    await this.requestShutdown();
    if (await this.waitForExit(SERVER_BOUNDS.shutdownMs)) return;
    sendSignal(this.pid, 'SIGTERM');
    if (await this.waitForExit(TERM_WAIT_MS)) return;
    await this.kill();
    throw rigFailure(`server pid ${this.pid} ignored SHUTDOWN and SIGTERM; it was killed`);
  }

  /** SHUTDOWN over the socket; SIGTERM when the server cannot be reached. */
  private async requestShutdown(): Promise<void> {
    let connection = null;
    try {
      connection = await connectToServer({ socketPath: this.socketPath }, { connectTimeoutMs: 5000 });
      await connection.query('SHUTDOWN');
    } catch {
      if (!this.exitSeen) sendSignal(this.pid, 'SIGTERM');
    } finally {
      await closeQuietly(connection);
    }
  }
}

/** False when the process is already gone. */
export function sendSignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The pid a run recorded in runDir, if its file is there. */
export async function readRecordedPid(runDir: string): Promise<number | null> {
  const text = await readFile(join(runDir, SERVER_PID_FILE), 'utf8').catch(() => null);
  const pid = text === null ? NaN : Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}
