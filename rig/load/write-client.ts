/**
 * One load client: its own connection and ledger row, running the steps of the load's mix (write
 * transactions, and lifecycle steps on its own tables) until the load is stopped or its connection
 * fails. Only a COMMIT (or a statement) that returned OK is acknowledged.
 */
import type { Connection } from 'mysql2/promise';
import type { Rng } from '../../faults/prng.js';
import { closeQuietly, connectToServer } from '../runtime/connect.js';
import { LEDGER_TABLE } from './dataset.js';
import type { AckedCommits } from './acked-commits.js';
import type { CommitTimeline } from './commit-timeline.js';
import type { Throughput } from './throughput.js';
import type { LoadError } from './types.js';
import { writeTransaction, type MixShape } from './write-transaction.js';
import { isRetryable, toLoadError } from './load-errors.js';
import { pickKind } from './load-mix.js';
import type { LoadMix } from '../results/load-kinds.js';
import type { LifecycleClient } from './lifecycle/lifecycle-client.js';

export interface WriteClient {
  client: number;
  socketPath: string;
  schema: string;
  shape: MixShape;
  rng: Rng; // the write transactions' choices
  mix: LoadMix;
  schedule: Rng; // which kind each step is (a mix of one kind draws nothing)
  lifecycle: LifecycleClient | null; // when the mix has lifecycle kinds
  signal: AbortSignal;
  acked: AckedCommits;
  timeline: CommitTimeline;
  throughput: Throughput;
}

export interface ClientOutcome {
  retried: number;
  error: LoadError | null;
}

async function joinLedger(connection: Connection, client: number): Promise<number> {
  await connection.query(`INSERT IGNORE INTO ${LEDGER_TABLE} (client, seq) VALUES (?, 0)`, [client]);
  const [rows] = await connection.query(`SELECT seq FROM ${LEDGER_TABLE} WHERE client = ?`, [client]);
  return Number((rows as Array<{ seq: string }>)[0]?.seq ?? 0);
}

async function rollbackQuietly(connection: Connection): Promise<void> {
  await connection.query('ROLLBACK').catch(() => undefined);
}

export async function runWriteClient(w: WriteClient): Promise<ClientOutcome> {
  let connection: Connection | null = null;
  let retried = 0;
  try {
    connection = await connectToServer({ socketPath: w.socketPath, database: w.schema });
    let seq = await joinLedger(connection, w.client);
    w.acked.begin(w.client, seq);
    w.timeline.join(w.client, seq);
    await w.lifecycle?.reset(connection, w.schema);
    while (!w.signal.aborted) {
      const kind = pickKind(w.mix, w.schedule);
      try {
        if (kind === 'write-only') {
          w.timeline.begin(w.client, seq + 1);
          await writeTransaction(connection, w.client, seq + 1, w.shape, w.rng);
        } else await w.lifecycle!.step(connection, kind);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        retried += 1;
        await rollbackQuietly(connection);
        continue;
      }
      if (kind !== 'write-only') continue; // acknowledged in the lifecycle ledger
      seq += 1;
      w.acked.ack(w.client, seq);
      w.timeline.ack(w.client, seq);
      w.throughput.count();
    }
    return { retried, error: null };
  } catch (error) {
    return { retried, error: toLoadError(w.client, w.throughput.elapsedMs(), error) };
  } finally {
    await closeQuietly(connection);
  }
}
