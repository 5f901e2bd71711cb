/**
 * `survey-bait`: one table per client whose first rows carry a pad of the bytes DE AD BE EF over
 * and over, then batches of plain rows that grow the file (page 0's space header changes as it
 * grows), then truncated or dropped and baited again. A 2 KiB slice of a page that starts inside
 * such a pad begins with 0xDEADBEEF, the "no checksum" magic that MySQL's default
 * innodb_checksum_algorithm (crc32, not strict) accepts on a compressed page. MySQL's survey for a
 * torn page 0's space id (Datafile::find_space_id) tries 1 KiB and 2 KiB pages before 16 KiB and
 * takes such a slice for a compressed page of another tablespace: the finding
 * docs/findings/mysql-page0-survey.md, on purpose rather than by luck. MariaDB reads page 0's space
 * id from its own header and pages 1-3, so there the table is a plain one.
 */
import type { Rng } from '../../../faults/prng.js';
import { between, pickWeighted, type LifecycleKind, type LifecycleStep } from './lifecycle-step.js';
import { createTableSql, K_INDEX, randomDigits } from './table-sql.js';
import { plainTable, totalRows } from './table-state.js';

/** The magic a page's checksum field holds when it was written with innodb_checksum_algorithm=none. */
export const NO_CHECKSUM_MAGIC = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
/**
 * Bait rows of one batch. Each pad is longer than 2 KiB, so each row spans a 2 KiB boundary of its
 * page; the pads alternate between two lengths one byte apart, so over eight rows the rows start at
 * every offset modulo 4 whatever a row's fixed part takes, and in one of them a boundary falls on
 * the first byte of the pattern.
 */
export const BAIT_ROWS = 8;
const BAIT_PAD = 3000;
const MAX_ROWS = 3000;

/** `length` bytes of DE AD BE EF repeated from the pattern's start. */
export function baitPad(length: number): Buffer {
  const pad = Buffer.alloc(length);
  for (let i = 0; i < length; i++) pad[i] = NO_CHECKSUM_MAGIC[i % 4]!;
  return pad;
}

function rowsSql(table: string, first: number, count: number, rng: Rng, pad: (i: number) => Buffer): { sql: string; values: unknown[] } {
  const rows: Array<[number, number, string, Buffer]> = [];
  for (let i = 0; i < count; i++) rows.push([first + i, 1 + rng.int(1000), randomDigits(rng, 119), pad(i)]);
  return { sql: `INSERT INTO ${table} (id, k, c, pad) VALUES ?`, values: [rows] };
}

export const surveyBait: LifecycleKind = {
  name: 'survey-bait',
  tables: (client) => [`bait_c${client}`],
  nextStep(table, state, rng): LifecycleStep {
    if (state === null) return { what: 'create', sql: createTableSql(table, { binaryPad: BAIT_PAD + 1 }), next: plainTable(0, [K_INDEX]) };
    const rows = totalRows(state);
    if (rows === 0) {
      return { what: `insert ${BAIT_ROWS} bait rows`, ...rowsSql(table, 1, BAIT_ROWS, rng, (i) => baitPad(BAIT_PAD + (i % 2))), next: plainTable(BAIT_ROWS, state.indexes) };
    }
    const batch = Math.min(between(rng, 100, 300), MAX_ROWS - rows);
    if (batch > 0) {
      return { what: `insert ${batch} rows`, ...rowsSql(table, rows + 1, batch, rng, () => Buffer.from(randomDigits(rng, 600))), next: plainTable(rows + batch, state.indexes) };
    }
    return pickWeighted<LifecycleStep>([
      [1, () => ({ what: 'truncate', sql: `TRUNCATE TABLE ${table}`, next: plainTable(0, state.indexes) })],
      [1, () => ({ what: 'drop', sql: `DROP TABLE ${table}`, next: null })],
    ], rng);
  },
};
