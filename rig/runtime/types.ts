/**
 * A server runtime: how a MySQL-family server is initialised, started, frozen, killed and stopped
 * on a datadir that lives on the power-fail disk. `local` runs the host's mariadbd/mysqld;
 * `docker` runs a server image.
 */
import type { ServerSettings } from '../results/types.js';

export interface ServerSpec {
  datadir: string; // on the disk's mount; the runtime never creates it outside
  runDir: string; // socket, pid file and error log live here (not on the disk)
  settings: ServerSettings;
  signal?: AbortSignal;
}

export interface StartedServer {
  readonly socketPath: string;
  readonly pid: number | null;
  /** The error log so far. */
  errorLog(): Promise<string>;
  /** Freeze (SIGSTOP / docker pause) then SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Clean shutdown; safe to call twice. */
  stop(): Promise<void>;
}

export type StartOutcome =
  | { ready: true; server: StartedServer }
  | { ready: false; exitCode: number | null; errorLog: string; timedOut: boolean };

export interface ServerRuntime {
  readonly name: 'local' | 'docker';
  /** Server name and version, e.g. "mariadbd 10.11.14-MariaDB". */
  describe(): Promise<{ server: string; version: string }>;
  /** Creates the system tables in an empty datadir. */
  initialize(spec: ServerSpec): Promise<void>;
  /** Starts and waits (bounded) for ready or exit. Never leaves a process behind on failure. */
  start(spec: ServerSpec, timeoutMs: number): Promise<StartOutcome>;
}
