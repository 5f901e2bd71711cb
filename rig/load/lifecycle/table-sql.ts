/**
 * The SQL the lifecycle kinds share: their tables have the sbtest columns (id, k, c, pad) with
 * the primary key on id and a secondary index k, so a torn page of either index shows in the
 * check; `wide` tables carry a pad of about 600 bytes, so a batch of rows fills many pages.
 */
import type { Rng } from '../../../faults/prng.js';

export const K_INDEX = 'k';

const PAD = { narrow: "pad CHAR(60) NOT NULL DEFAULT ''", wide: "pad VARCHAR(1000) NOT NULL DEFAULT ''" };

export interface TableShape {
  wide?: boolean;
  /** A pad of raw bytes up to this length instead of text (VARBINARY). */
  binaryPad?: number;
  /** RANGE partitions on id: each with its name and the id it stays below. */
  partitions?: Array<{ name: string; below: number }>;
}

export function partitionSql(p: { name: string; below: number }): string {
  return `PARTITION ${p.name} VALUES LESS THAN (${p.below})`;
}

export function createTableSql(table: string, shape: TableShape = {}): string {
  const pad = shape.binaryPad ? `pad VARBINARY(${shape.binaryPad}) NOT NULL DEFAULT ''` : shape.wide ? PAD.wide : PAD.narrow;
  const columns = `id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', ${pad}`;
  const partitions = shape.partitions ? ` PARTITION BY RANGE (id) (${shape.partitions.map(partitionSql).join(', ')})` : '';
  return `CREATE TABLE ${table} (${columns}, PRIMARY KEY (id), KEY ${K_INDEX} (k)) ENGINE=InnoDB${partitions}`;
}

/**
 * `length` random digits, nine per draw: a bulk batch is thousands of rows made on the event loop
 * all the clients share, so this costs a ninth of sbtest's digit-by-digit values.
 */
export function randomDigits(rng: Rng, length: number): string {
  let text = '';
  while (text.length < length) text += String(rng.int(1e9)).padStart(9, '0');
  return text.slice(0, length);
}

/** One multi-row INSERT of ids first..first+count-1 (mysql2 expands the nested array). */
export function insertRowsSql(table: string, first: number, count: number, rng: Rng, wide = false): { sql: string; values: unknown[] } {
  const rows: Array<[number, number, string, string]> = [];
  for (let id = first; id < first + count; id++) {
    rows.push([id, 1 + rng.int(1000), randomDigits(rng, 119), randomDigits(rng, wide ? 600 : 59)]);
  }
  return { sql: `INSERT INTO ${table} (id, k, c, pad) VALUES ?`, values: [rows] };
}
