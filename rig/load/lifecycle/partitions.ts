/**
 * `partitions`: one partitioned table per client (partitioned-table.ts) whose partitions are
 * filled, truncated, added at the top and dropped. ADD and DROP PARTITION rewrite the table's
 * .par file, which MariaDB 10.11 does not sync: a cut in the seconds after one finds the .par
 * empty (a finding this kind reproduces; `partition-truncate` leaves the .par alone).
 */
import { pickWeighted, type LifecycleKind, type LifecycleStep } from './lifecycle-step.js';
import { bound, createPartitioned, insertInto, MAX_ROWS_PER_PART, notCreatedByLoad, part, partNumber, pick, truncatePartition } from './partitioned-table.js';
import { partitionSql } from './table-sql.js';

const MAX_PARTS = 6;

export const partitions: LifecycleKind = {
  name: 'partitions',
  tables: (client) => [`parts_c${client}`],
  prepared: (table) => createPartitioned(table, 2),
  nextStep(table, state, rng) {
    if (state === null) return notCreatedByLoad(table);
    const roomy = state.parts.filter((p) => p.rows < MAX_ROWS_PER_PART);
    const added = part(Math.max(...state.parts.map(partNumber)) + 1);
    return pickWeighted<LifecycleStep>([
      [roomy.length ? 3 : 0, () => insertInto(table, state, pick(roomy, rng), rng)],
      [1, () => truncatePartition(table, state, pick(state.parts, rng))],
      [state.parts.length < MAX_PARTS ? 1 : 0, () => ({
        what: `add partition ${added.name}`,
        sql: `ALTER TABLE ${table} ADD PARTITION (${partitionSql(bound(added))})`,
        next: { ...state, parts: [...state.parts, added] },
      })],
      [state.parts.length > 1 ? 1 : 0, () => {
        const p = pick(state.parts, rng);
        return { what: `drop partition ${p.name}`, sql: `ALTER TABLE ${table} DROP PARTITION ${p.name}`, next: { ...state, parts: state.parts.filter((q) => q !== p) } };
      }],
    ], rng);
  },
};
