/**
 * `partition-truncate`: one partitioned table per client with four fixed partitions, filled and
 * truncated (TRUNCATE PARTITION), never added or dropped: every truncate gives a partition a new
 * tablespace and a new page 0, while the table's .par file stays as the prepared image made it.
 * The case a published study of real power cuts saw lose page 0.
 */
import { pickWeighted, type LifecycleKind, type LifecycleStep } from './lifecycle-step.js';
import { createPartitioned, insertInto, MAX_ROWS_PER_PART, notCreatedByLoad, pick, truncatePartition } from './partitioned-table.js';

export const partitionTruncate: LifecycleKind = {
  name: 'partition-truncate',
  tables: (client) => [`ptrunc_c${client}`],
  prepared: (table) => createPartitioned(table, 4),
  nextStep(table, state, rng) {
    if (state === null) return notCreatedByLoad(table);
    const roomy = state.parts.filter((p) => p.rows < MAX_ROWS_PER_PART);
    const filled = state.parts.filter((p) => p.rows > 0);
    return pickWeighted<LifecycleStep>([
      [roomy.length ? 2 : 0, () => insertInto(table, state, pick(roomy, rng), rng)],
      [filled.length ? 1 : 0, () => truncatePartition(table, state, pick(filled, rng))],
    ], rng);
  },
};
