/**
 * A server runtime: how a MySQL-family server is initialised, started, frozen, killed and stopped
 * on a datadir that lives on the power-fail disk. `local` runs the host's mariadbd/mysqld;
 * `docker` runs a server image.
 */
import type { ScenarioSettings, ServerSettings, StallSeen } from '../results/types.js';

export interface ServerSpec {
  datadir: string; // on the disk's mount; the runtime never creates it outside
  runDir: string; // socket, pid file and error log live here (not on the disk)
  settings: ServerSettings;
  signal?: AbortSignal;
}

/** How a server process ended: its exit code, or the signal that ended it. */
export interface ServerExit {
  exitCode: number | null;
  signal: string | null;
}

export interface StartedServer {
  readonly socketPath: string;
  readonly pid: number | null;
  /** The error log of this start so far. */
  errorLog(): Promise<string>;
  /**
   * Freeze (SIGSTOP / docker pause) then SIGKILL, without waiting for the process to go. At a cut
   * the disk holds the server's I/O: a process blocked in that I/O takes its SIGKILL only once the
   * disk fails the held requests, so the cut sends this, releases the disk, then waits for exit.
   */
  signalKill(): void;
  /** The exit once the process is gone, or null if it is still there after timeoutMs. */
  waitForExit(timeoutMs: number): Promise<ServerExit | null>;
  /** signalKill() then waitForExit() with a bound; throws a rig failure if it did not die. */
  kill(): Promise<void>;
  /** Clean shutdown; safe to call twice. */
  stop(): Promise<void>;
}

export type StartOutcome =
  | { ready: true; server: StartedServer }
  | {
      ready: false;
      exitCode: number | null;
      signal?: string | null; // the signal that ended the server (a crash), when it was one
      errorLog: string;
      timedOut: boolean; // the bound passed, or the server stalled first
      stalled?: StallSeen; // what the stall was judged on
    };

export interface ServerRuntime {
  readonly name: ScenarioSettings['runtime'];
  /** The image a docker runtime runs (the scenario's, or the one chosen when it named none). */
  readonly imageTag?: string;
  /** Server name and version, e.g. "mariadbd 10.11.14-MariaDB". */
  describe(): Promise<{ server: string; version: string }>;
  /** Whether the server can load MariaDB's RocksDB plugin (rig/runtime/rocksdb-support.ts); asked once. */
  hasRocksdb(): Promise<boolean>;
  /** Creates the system tables in an empty datadir. */
  initialize(spec: ServerSpec): Promise<void>;
  /**
   * Starts and waits (bounded) for ready or exit. Never leaves a process behind on failure.
   * ready:false is the server's own refusal (a finding to judge); a start that failed because of
   * the rig (socket path too long, datadir missing or read-only, no space, no binary) throws a
   * RigError instead. With `stallMs`, a server that stalls that long before it answers (no I/O,
   * next to no CPU: ./stall-watch.ts) is killed then, as one that passed the bound.
   */
  start(spec: ServerSpec, timeoutMs: number, stallMs?: number): Promise<StartOutcome>;
  /** Releases what the runtime holds (the docker runtime: an engine it started). */
  close?(): Promise<void>;
}
