/**
 * `churn`: each client's own tables are created, filled, truncated and dropped over and over, so
 * tablespaces are born (page 0 written fresh), replaced (TRUNCATE creates a new one) and deleted
 * while the rest of the load runs. Separate from the sbtest tables, whose invariants stay as they are.
 */
import { between, pickWeighted, type LifecycleKind, type LifecycleStep } from './lifecycle-step.js';
import { createTableSql, insertRowsSql, K_INDEX } from './table-sql.js';
import { plainTable, totalRows } from './table-state.js';

const TABLES_PER_CLIENT = 2;
const MAX_ROWS = 1500;

export const churn: LifecycleKind = {
  name: 'churn',
  tables: (client) => Array.from({ length: TABLES_PER_CLIENT }, (_, i) => `churn_c${client}_t${i + 1}`),
  nextStep(table, state, rng) {
    if (state === null) return { what: 'create', sql: createTableSql(table), next: plainTable(0, [K_INDEX]) };
    const rows = totalRows(state);
    const batch = between(rng, 50, 250);
    return pickWeighted<LifecycleStep>([
      [rows + batch <= MAX_ROWS ? 4 : 0, () => ({ what: `insert ${batch} rows`, ...insertRowsSql(table, rows + 1, batch, rng), next: plainTable(rows + batch, state.indexes) })],
      [1, () => ({ what: 'truncate', sql: `TRUNCATE TABLE ${table}`, next: plainTable(0, state.indexes) })],
      [1, () => ({ what: 'drop', sql: `DROP TABLE ${table}`, next: null })],
    ], rng);
  },
};
