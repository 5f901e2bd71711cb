/**
 * The lifecycle check after recovery: every table the load's lifecycle steps worked on (churn,
 * alter, partitions, partition-truncate, bulk, survey-bait) is read back and held against its ledger of acknowledged steps.
 * Acknowledged steps whose effect is gone count as missing (like lost commits); a state no step
 * left, a table the server cannot read, an index that disagrees with its rows, or a table the SQL
 * layer and InnoDB disagree about are violations. A lost connection or the rig's own bad SQL throws.
 */
import type { Connection } from 'mysql2/promise';
import { DEFAULT_SCHEMA } from '../load/dataset.js';
import type { LifecycleLedger } from '../load/lifecycle/acked-steps.js';
import { isRigSqlError, isServerAnswer } from '../load/load-errors.js';
import { judgeTableSteps } from './lifecycle-outcome.js';
import { observeTable } from '../load/lifecycle/observe-table.js';

export interface LifecycleCheck {
  acked: number; // steps acknowledged during the load
  missing: number; // acknowledged steps whose effect is gone
  lost: string[]; // one line per table that lost steps
  violations: string[];
}

export async function checkLifecycle(connection: Connection, ledger: LifecycleLedger, schema = DEFAULT_SCHEMA): Promise<LifecycleCheck> {
  const out: LifecycleCheck = { acked: ledger.acked, missing: 0, lost: [], violations: [] };
  for (const t of ledger.tables) {
    let observed;
    try {
      observed = await observeTable(connection, schema, t.table);
    } catch (error) {
      if (!isServerAnswer(error) || isRigSqlError(error)) throw error;
      out.violations.push(`${schema}.${t.table}: the server could not read it: ${(error as Error).message}`);
      continue;
    }
    out.violations.push(...observed.problems.map((p) => `${schema}.${t.table}: ${p}`));
    const outcome = judgeTableSteps(t, observed.signature);
    if (outcome.kind === 'lost') {
      out.missing += outcome.steps;
      out.lost.push(`${schema}.${outcome.line}`);
    } else if (outcome.kind === 'unexplained') {
      out.violations.push(`${schema}.${outcome.line}`);
    }
  }
  return out;
}
