/**
 * What the partition kinds share: a RANGE-partitioned table whose partition pN holds ids
 * N*1000+1 .. (N+1)*1000, made by the prepared image (never by the load), and the steps that fill
 * or truncate one partition. TRUNCATE PARTITION gives the partition a new tablespace, so a new
 * page 0; each partition is its own .ibd.
 *
 * Why the prepared image makes the table: MariaDB 10.11 writes a partitioned table's .par file
 * without syncing it (at CREATE, and at ADD or DROP PARTITION, which replace it by rename), so a
 * CREATE acknowledged in the seconds before a cut leaves an empty .par on ext4 and the table
 * unreadable ("Failed to read from the .par file"). A table the load creates would fail that way in
 * every cycle; TRUNCATE PARTITION leaves the .par alone.
 */
import type { Rng } from '../../../faults/prng.js';
import { between, type LifecycleStep } from './lifecycle-step.js';
import { createTableSql, insertRowsSql, K_INDEX } from './table-sql.js';
import { withPartRows, type Part, type TableState } from './table-state.js';

const WIDTH = 1000; // ids per partition
export const MAX_ROWS_PER_PART = 500;

export const part = (n: number, rows = 0): Part => ({ name: `p${n}`, first: n * WIDTH + 1, rows });
export const bound = (p: Part) => ({ name: p.name, below: p.first + WIDTH });
export const partNumber = (p: Part): number => (p.first - 1) / WIDTH;
export const pick = <T>(items: T[], rng: Rng): T => items[rng.int(items.length)]!;

/** The CREATE of a table with partitions p0..p(count-1), all empty. */
export function createPartitioned(table: string, count: number): LifecycleStep {
  const parts = Array.from({ length: count }, (_, n) => part(n));
  return { what: 'create', sql: createTableSql(table, { partitions: parts.map(bound) }), next: { parts, indexes: [K_INDEX] } };
}

/** A batch of rows into a partition with room (rows < MAX_ROWS_PER_PART). */
export function insertInto(table: string, state: TableState, p: Part, rng: Rng): LifecycleStep {
  const batch = Math.min(between(rng, 50, 150), MAX_ROWS_PER_PART - p.rows);
  return { what: `insert ${batch} rows into ${p.name}`, ...insertRowsSql(table, p.first + p.rows, batch, rng), next: withPartRows(state, p.name, p.rows + batch) };
}

export function truncatePartition(table: string, state: TableState, p: Part): LifecycleStep {
  return { what: `truncate partition ${p.name}`, sql: `ALTER TABLE ${table} TRUNCATE PARTITION ${p.name}`, next: withPartRows(state, p.name, 0) };
}

export function notCreatedByLoad(table: string): never {
  throw new Error(`${table} comes from the prepared image; the load does not create it`);
}
