/**
 * One lifecycle step: a single statement (DDL, or one multi-row INSERT in autocommit) on one
 * table, and the state it leaves. Each statement is atomic in MariaDB 10.11 (atomic DDL, or one
 * transaction), so after a crash the table is in the state before or after it. A lifecycle kind
 * names its tables and chooses each next step from the table's state; a kind may have its tables
 * made in the prepared image instead of by the load (see `prepared`).
 */
import type { Rng } from '../../../faults/prng.js';
import type { LifecycleKindName } from '../load-mix.js';
import type { ObjectState } from './table-state.js';

export interface LifecycleStep {
  what: string; // "create", "insert 120 rows", "truncate partition p1", ...
  sql: string;
  values?: unknown[];
  next: ObjectState;
}

export interface LifecycleKind {
  name: LifecycleKindName;
  /** The tables this kind works on for one load client; no two clients share one. */
  tables(client: number): string[];
  /** The next step on `table`, chosen with rng from the state the table is in. */
  nextStep(table: string, state: ObjectState, rng: Rng): LifecycleStep;
  /**
   * For a kind whose tables the prepared image holds: the CREATE that makes one there. The load
   * then never creates or drops the table itself, only changes it.
   */
  prepared?: (table: string) => LifecycleStep;
}

/** One of the options, in proportion to its weight; options of weight 0 are never chosen. */
export function pickWeighted<T>(options: Array<[number, () => T]>, rng: Rng): T {
  const live = options.filter(([w]) => w > 0);
  if (live.length === 0) throw new Error('no step is possible from this state');
  const total = live.reduce((sum, [w]) => sum + w, 0);
  let draw = rng.next() * total;
  for (const [w, make] of live) {
    draw -= w;
    if (draw < 0) return make();
  }
  return live.at(-1)![1]();
}

/** A whole number from lo to hi, both included. */
export function between(rng: Rng, lo: number, hi: number): number {
  return lo + rng.int(hi - lo + 1);
}
