/**
 * One transaction of the write mix, modelled on sysbench's oltp_write_only: an index update, a
 * non-index update, a delete and re-insert of one id, each on a random table, plus the client's
 * ledger row advanced by one and its history row for that seq, all committed together.
 */
import type { Connection, ResultSetHeader } from 'mysql2/promise';
import type { Rng } from '../../faults/prng.js';
import { HISTORY_TABLE, LEDGER_TABLE } from './dataset.js';
import { cValue, padValue, rowId, tableName } from './sbtest-values.js';

export interface MixShape {
  tables: number;
  rows: number;
}

export class LedgerRowMissing extends Error {}

/** Runs the statements and COMMIT as the client's commit number `seq`; resolves only when COMMIT returned OK. */
export async function writeTransaction(
  connection: Connection,
  client: number,
  seq: number,
  shape: MixShape,
  rng: Rng,
): Promise<void> {
  await connection.query('BEGIN');
  await connection.execute(`UPDATE ${tableName(rng, shape.tables)} SET k = k + 1 WHERE id = ?`, [
    rowId(rng, shape.rows),
  ]);
  await connection.execute(`UPDATE ${tableName(rng, shape.tables)} SET c = ? WHERE id = ?`, [
    cValue(rng),
    rowId(rng, shape.rows),
  ]);
  const table = tableName(rng, shape.tables);
  const id = rowId(rng, shape.rows);
  await connection.execute(`DELETE FROM ${table} WHERE id = ?`, [id]);
  await connection.execute(`INSERT INTO ${table} (id, k, c, pad) VALUES (?, ?, ?, ?)`, [
    id,
    rowId(rng, shape.rows),
    cValue(rng),
    padValue(rng),
  ]);
  const [ledger] = await connection.execute<ResultSetHeader>(
    `UPDATE ${LEDGER_TABLE} SET seq = seq + 1 WHERE client = ?`,
    [client],
  );
  if (ledger.affectedRows !== 1) throw new LedgerRowMissing(`ledger row of client ${client} is missing`);
  await connection.execute(`INSERT INTO ${HISTORY_TABLE} (client, seq) VALUES (?, ?)`, [client, seq]);
  await connection.query('COMMIT');
}
