/**
 * A running server container (the `docker` runtime's StartedServer). signalKill() stops and kills
 * the server by its host pid at once (it is pid 1 of its container: SIGSTOP and SIGKILL from the
 * host always reach it), like a frozen-then-killed local server; the engine then sees the
 * container exit and it is removed. stop() is a clean shutdown (SIGTERM through the engine).
 */
import type Dockerode from 'dockerode';
import { open } from 'node:fs/promises';
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVER_BOUNDS } from '../defaults.js';
import { rigFailure } from '../errors.js';
import { containerOutput, removeContainer } from './docker-container.js';
import type { ServerExit, StartedServer } from './types.js';


export interface DockerServerParts {
  container: Dockerode.Container;
  pid: number | null; // host pid of the server (pid 1 in the container)
  socketPath: string;
  logPath: string; // host path of the error log in the run dir
  logOffset: number;
}

/** Exit code as the engine reports it; above 128 means the signal (code - 128) ended it. */
export function exitFromCode(code: number): ServerExit {
  if (code <= 128) return { exitCode: code, signal: null };
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] ?? null;
  return { exitCode: null, signal: name };
}

export async function readLogFrom(path: string, offset: number): Promise<string> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return '';
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

export class DockerServer implements StartedServer {
  readonly socketPath: string;
  readonly pid: number | null;
  private stopping: Promise<void> | null = null;
  private removed = false;
  private exitSeen: ServerExit | null = null; // kept before the container (and its status) goes

  constructor(private readonly parts: DockerServerParts) {
    this.socketPath = parts.socketPath;
    this.pid = parts.pid;
  }

  /** The error log of this start; the container's own output when the server never opened it. */
  async errorLog(): Promise<string> {
    const log = await readLogFrom(this.parts.logPath, this.parts.logOffset);
    if (log.trim() || this.removed) return log;
    return containerOutput(this.parts.container);
  }

  signalKill(): void {
    if (this.pid === null) {
      void this.parts.container.kill({ signal: 'SIGKILL' }).catch(() => undefined);
      return;
    }
    for (const sig of ['SIGSTOP', 'SIGKILL'] as const) {
      try {
        process.kill(this.pid, sig);
      } catch {
        // already gone
      }
    }
  }

  /** Settles when the container has exited (or is gone). */
  exited(): Promise<ServerExit> {
    return this.parts.container
      .wait()
      .then((r: { StatusCode: number }) => exitFromCode(r.StatusCode))
      .catch(() => ({ exitCode: null, signal: null })); // already removed
  }

  async waitForExit(timeoutMs: number): Promise<ServerExit | null> {
    if (this.exitSeen) return this.exitSeen;
    const exit = await Promise.race([this.exited(), sleep(timeoutMs, null, { ref: false })]);
    if (exit && !this.removed) this.exitSeen = exit;
    return exit;
  }

  async kill(): Promise<void> {
    this.stopping ??= this.killAndRemove();
    await this.stopping;
  }

  async stop(): Promise<void> {
    this.stopping ??= this.shutDownAndRemove();
    await this.stopping;
  }

  private async killAndRemove(): Promise<void> {
    this.signalKill();
    let exit = await this.waitForExit(SERVER_BOUNDS.killMs);
    if (!exit) {
      await this.parts.container.kill({ signal: 'SIGKILL' }).catch(() => undefined);
      exit = await this.waitForExit(SERVER_BOUNDS.killMs);
    }
    if (!exit) throw rigFailure(`server container did not die within ${(2 * SERVER_BOUNDS.killMs) / 1000} s of SIGKILL`);
    await this.remove();
  }

  private async shutDownAndRemove(): Promise<void> {
    try {
      await this.parts.container.stop({ t: SERVER_BOUNDS.shutdownMs / 1000 });
    } catch (error) {
      const code = (error as { statusCode?: number }).statusCode;
      if (code !== 304 && code !== 404) throw rigFailure('server container did not stop', error); // 304: already stopped
    }
    await this.waitForExit(SERVER_BOUNDS.killMs); // its exit status, before removal takes it
    await this.remove();
  }

  private async remove(): Promise<void> {
    await removeContainer(this.parts.container);
    this.removed = true;
  }
}
