/**
 * One load client: its own connection and ledger row, running write transactions until the load
 * is stopped or its connection fails. Only a COMMIT that returned OK is acknowledged.
 */
import type { Connection } from 'mysql2/promise';
import type { Rng } from '../../faults/prng.js';
import { closeQuietly, connectToServer } from '../runtime/connect.js';
import { LEDGER_TABLE } from './dataset.js';
import type { AckedCommits } from './acked-commits.js';
import type { Throughput } from './throughput.js';
import type { LoadError } from './types.js';
import { writeTransaction, type MixShape } from './write-transaction.js';
import { isRetryable, toLoadError } from './load-errors.js';

export interface WriteClient {
  client: number;
  socketPath: string;
  schema: string;
  shape: MixShape;
  rng: Rng;
  signal: AbortSignal;
  acked: AckedCommits;
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
    while (!w.signal.aborted) {
      try {
        await writeTransaction(connection, w.client, seq + 1, w.shape, w.rng);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        retried += 1;
        await rollbackQuietly(connection);
        continue;
      }
      seq += 1;
      w.acked.ack(w.client, seq);
      w.throughput.count();
    }
    return { retried, error: null };
  } catch (error) {
    return { retried, error: toLoadError(w.client, w.throughput.elapsedMs(), error) };
  } finally {
    await closeQuietly(connection);
  }
}
