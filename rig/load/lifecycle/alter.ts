/**
 * `alter`: one table per client, rebuilt in place (ENGINE=InnoDB), rebuilt by copy (FORCE,
 * ALGORITHM=COPY), and given or relieved of a secondary index on c, between batches of rows. A
 * rebuild writes the table into a new tablespace and swaps it in; the rows and indexes stay.
 */
import { between, pickWeighted, type LifecycleKind, type LifecycleStep } from './lifecycle-step.js';
import { createTableSql, insertRowsSql, K_INDEX } from './table-sql.js';
import { plainTable, totalRows } from './table-state.js';

const C_INDEX = 'kc';
const MAX_ROWS = 800;

export const alter: LifecycleKind = {
  name: 'alter',
  tables: (client) => [`alter_c${client}`],
  nextStep(table, state, rng) {
    if (state === null) return { what: 'create', sql: createTableSql(table), next: plainTable(0, [K_INDEX]) };
    const rows = totalRows(state);
    const batch = Math.min(between(rng, 100, 200), MAX_ROWS - rows);
    const hasC = state.indexes.includes(C_INDEX);
    const indexes = hasC ? state.indexes.filter((i) => i !== C_INDEX) : [...state.indexes, C_INDEX];
    return pickWeighted<LifecycleStep>([
      [batch > 0 ? 3 : 0, () => ({ what: `insert ${batch} rows`, ...insertRowsSql(table, rows + 1, batch, rng), next: plainTable(rows + batch, state.indexes) })],
      [1, () => ({ what: 'rebuild in place', sql: `ALTER TABLE ${table} ENGINE=InnoDB`, next: state })],
      [1, () => ({ what: 'rebuild by copy', sql: `ALTER TABLE ${table} FORCE, ALGORITHM=COPY`, next: state })],
      [1, () => ({
        what: hasC ? `drop index ${C_INDEX}` : `add index ${C_INDEX}`,
        sql: hasC ? `ALTER TABLE ${table} DROP INDEX ${C_INDEX}` : `ALTER TABLE ${table} ADD INDEX ${C_INDEX} (c)`,
        next: plainTable(rows, indexes),
      })],
    ], rng);
  },
};
