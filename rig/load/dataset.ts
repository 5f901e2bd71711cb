/**
 * The dataset: sysbench's oltp tables sbtest1..N (the k index built after the rows, as sysbench
 * does), the ledger table (one row per load client, advanced by every write transaction) and the
 * history table (one row per committed transaction), which the invariants check holds together;
 * and, when the load's mix has kinds whose tables the prepared image holds, one such table per
 * load client (rig/load/lifecycle/prepared-tables.ts).
 */
import type { Connection } from 'mysql2/promise';
import { badInput } from '../errors.js';
import { createRng, type Rng } from '../../faults/prng.js';
import { closeQuietly, connectToServer, type ServerEndpoint } from '../runtime/connect.js';
import { cValue, padValue } from './sbtest-values.js';
import { createPreparedTables } from './lifecycle/prepared-tables.js';
import type { LoadMix } from '../results/load-kinds.js';
import type { Engine } from '../results/types.js';

export const DEFAULT_SCHEMA = 'sbtest';
export const LEDGER_TABLE = 'rig_ledger';
/** One row per committed write transaction: (client, seq), written in the same transaction as the ledger row. */
export const HISTORY_TABLE = 'rig_history';
const ROWS_PER_INSERT = 1000;
const LOADERS = 2; // connections filling tables side by side

export interface DatasetOptions {
  tables: number;
  rows: number;
  schema?: string;
  seed?: number;
  mix?: LoadMix; // the load's mix: kinds with prepared tables get one per connection
  connections?: number;
  engine?: Engine; // of every table the dataset creates; innodb when absent
}

const ENGINE_CLAUSE: Record<Engine, string> = { innodb: 'ENGINE=InnoDB', rocksdb: 'ENGINE=ROCKSDB' };

async function createTable(connection: Connection, table: string, rows: number, rng: Rng, engine: string): Promise<void> {
  await connection.query(
    `CREATE TABLE ${table} (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, ` +
      `c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id)) ${engine}`,
  );
  for (let first = 1; first <= rows; first += ROWS_PER_INSERT) {
    const values: Array<[number, number, string, string]> = [];
    for (let id = first; id < Math.min(first + ROWS_PER_INSERT, rows + 1); id++) {
      values.push([id, 1 + rng.int(rows), cValue(rng), padValue(rng)]);
    }
    await connection.query(`INSERT INTO ${table} (id, k, c, pad) VALUES ?`, [values]);
  }
  await connection.query(`CREATE INDEX k_1 ON ${table} (k)`);
}

/** Fills tables first, first + LOADERS, ... over its own connection; each table has its own seed. */
async function loadTables(endpoint: ServerEndpoint, schema: string, first: number, options: DatasetOptions) {
  const connection = await connectToServer({ ...endpoint, database: schema });
  try {
    for (let i = first; i <= options.tables; i += LOADERS) {
      await createTable(connection, `sbtest${i}`, options.rows, createRng((options.seed ?? 1) * 7919 + i), ENGINE_CLAUSE[options.engine ?? 'innodb']);
    }
  } finally {
    await closeQuietly(connection);
  }
}

/** Drops and recreates the schema, its tables and the ledger table. */
export async function prepareDataset(endpoint: ServerEndpoint, options: DatasetOptions): Promise<void> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  if (!/^\w+$/.test(schema)) throw badInput(`schema name "${schema}" must be letters, digits or _`);
  if (options.tables < 1 || options.rows < 1) throw badInput('the dataset needs at least one table and one row');
  const engine = ENGINE_CLAUSE[options.engine ?? 'innodb'];
  const connection = await connectToServer(endpoint);
  try {
    await connection.query(`DROP DATABASE IF EXISTS ${schema}`);
    await connection.query(`CREATE DATABASE ${schema}`);
    await connection.query(
      `CREATE TABLE ${schema}.${LEDGER_TABLE} (client INT NOT NULL PRIMARY KEY, seq BIGINT NOT NULL DEFAULT 0) ${engine}`,
    );
    await connection.query(
      `CREATE TABLE ${schema}.${HISTORY_TABLE} (client INT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (client, seq)) ${engine}`,
    );
    await connection.query(`USE ${schema}`);
    await createPreparedTables(connection, options.mix, options.connections ?? 0);
  } finally {
    await closeQuietly(connection);
  }
  const loaders = Array.from({ length: Math.min(LOADERS, options.tables) }, (_, i) => i + 1);
  await Promise.all(loaders.map((first) => loadTables(endpoint, schema, first, options)));
}
