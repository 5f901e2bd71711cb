/**
 * `bulk`: one wide table per client filled by large multi-row INSERTs (about 1.4 MB each), so its
 * file grows past its first extents and page 0's space header (the file's size, its free and
 * fragment extent lists) changes with every batch; once full it is truncated or dropped.
 */
import { between, pickWeighted, type LifecycleKind, type LifecycleStep } from './lifecycle-step.js';
import { createTableSql, insertRowsSql, K_INDEX } from './table-sql.js';
import { plainTable, totalRows } from './table-state.js';

const MAX_ROWS = 12_000;
/** What one client's bulk table can take on disk at its fullest (12000 rows of ~750 bytes, its index, a rebuild's slack). */
export const BULK_TABLE_MAX_BYTES = 16 * 1024 * 1024;

export const bulk: LifecycleKind = {
  name: 'bulk',
  tables: (client) => [`bulk_c${client}`],
  nextStep(table, state, rng) {
    if (state === null) return { what: 'create', sql: createTableSql(table, { wide: true }), next: plainTable(0, [K_INDEX]) };
    const rows = totalRows(state);
    const batch = Math.min(between(rng, 1500, 2500), MAX_ROWS - rows);
    if (batch > 0) return { what: `insert ${batch} rows`, ...insertRowsSql(table, rows + 1, batch, rng, true), next: plainTable(rows + batch, state.indexes) };
    return pickWeighted<LifecycleStep>([
      [1, () => ({ what: 'truncate', sql: `TRUNCATE TABLE ${table}`, next: plainTable(0, state.indexes) })],
      [1, () => ({ what: 'drop', sql: `DROP TABLE ${table}`, next: null })],
    ], rng);
  },
};
