/**
 * `partitions`: one RANGE-partitioned table per client (partition pN holds ids N*1000+1 ..
 * (N+1)*1000), whose partitions are filled, truncated (TRUNCATE PARTITION gives the partition a
 * new tablespace), added at the top and dropped. Each partition is its own .ibd with its own page 0.
 */
import type { Rng } from '../../../faults/prng.js';
import { between, pickWeighted, type LifecycleKind, type LifecycleStep } from './lifecycle-step.js';
import { createTableSql, insertRowsSql, K_INDEX, partitionSql } from './table-sql.js';
import { withPartRows, type Part, type TableState } from './table-state.js';

const WIDTH = 1000; // ids per partition
const MAX_ROWS_PER_PART = 500;
const MAX_PARTS = 6;

const part = (n: number, rows = 0): Part => ({ name: `p${n}`, first: n * WIDTH + 1, rows });
const bound = (p: Part) => ({ name: p.name, below: p.first + WIDTH });
const pick = <T>(items: T[], rng: Rng): T => items[rng.int(items.length)]!;

function insertInto(table: string, state: TableState, p: Part, rng: Rng): LifecycleStep {
  const batch = Math.min(between(rng, 50, 150), MAX_ROWS_PER_PART - p.rows);
  return { what: `insert ${batch} rows into ${p.name}`, ...insertRowsSql(table, p.first + p.rows, batch, rng), next: withPartRows(state, p.name, p.rows + batch) };
}

export const partitions: LifecycleKind = {
  name: 'partitions',
  tables: (client) => [`parts_c${client}`],
  nextStep(table, state, rng) {
    if (state === null) {
      const parts = [part(0), part(1)];
      return { what: 'create', sql: createTableSql(table, { partitions: parts.map(bound) }), next: { parts, indexes: [K_INDEX] } };
    }
    const roomy = state.parts.filter((p) => p.rows < MAX_ROWS_PER_PART);
    const top = Math.max(...state.parts.map((p) => (p.first - 1) / WIDTH));
    const added = part(top + 1);
    return pickWeighted<LifecycleStep>([
      [roomy.length ? 3 : 0, () => insertInto(table, state, pick(roomy, rng), rng)],
      [1, () => {
        const p = pick(state.parts, rng);
        return { what: `truncate partition ${p.name}`, sql: `ALTER TABLE ${table} TRUNCATE PARTITION ${p.name}`, next: withPartRows(state, p.name, 0) };
      }],
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
