/** The write load's options, live handle and result, shared by the builtin and sysbench loads. */
import type { LifecycleLedger } from './lifecycle/acked-steps.js';
import type { CommitTimeline } from './commit-timeline.js';
import type { LoadMix } from '../results/load-kinds.js';

export interface LoadOptions {
  socketPath: string;
  connections: number;
  tables: number;
  rows: number; // rows per table the dataset was prepared with (ids 1..rows)
  schema?: string; // default sbtest
  seed?: number; // the builtin load's random choices
  mix?: LoadMix; // the builtin load's kinds of step (default write-only alone); sysbench has its own
  signal?: AbortSignal; // aborting ends the load
}

export interface ThroughputBucket {
  tMs: number; // bucket start, since the load started
  commits: number;
}

export interface LoadError {
  client: number; // 0 for the load as a whole (sysbench)
  atMs: number;
  code: string | null; // mysql2's code (e.g. PROTOCOL_CONNECTION_LOST) or errno
  message: string;
  connectionLost: boolean; // what the cut does: the server went away
}

export interface LoadResult {
  kind: 'builtin' | 'sysbench';
  /** Whether acknowledged commits were recorded, so the ledger check can run. */
  ledger: boolean;
  note?: string; // why there is no ledger, when there is none
  /** Per client, the highest ledger seq whose COMMIT returned OK (or that was read back at start). */
  acked: Map<number, number>;
  /** Commits acknowledged during this load (estimated from sysbench's reports for sysbench). */
  ackedCount: number;
  /** When each commit began and was acknowledged (builtin load): the ledger at any moment. */
  timeline?: CommitTimeline;
  /** Per client, the most the ledger may hold (a crash state's bound); default: acked + 1. */
  begun?: Map<number, number>;
  /** The lifecycle steps' ledger, when the mix had lifecycle kinds. */
  lifecycle?: LifecycleLedger;
  retried: number; // transactions rolled back by a deadlock or lock wait timeout and retried
  bucketMs: number;
  throughput: ThroughputBucket[];
  errors: LoadError[];
  durationMs: number;
  /** stopped: the signal or stop(); connection-lost: every client lost the server; error: otherwise. */
  endedBy: 'stopped' | 'connection-lost' | 'error';
}

export interface LoadHandle {
  /** Commits (and lifecycle steps) acknowledged so far. */
  ackedSoFar(): number;
  /** Ends the load (the transaction in flight finishes or fails) and returns its result. */
  stop(): Promise<LoadResult>;
  /** Resolves when the load ends by itself (connections lost), by the signal, or by stop(). */
  result(): Promise<LoadResult>;
}
