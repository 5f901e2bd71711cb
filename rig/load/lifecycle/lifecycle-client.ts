/**
 * One load client's lifecycle tables: at the start it drops them (so it knows they are absent),
 * then each call to step() runs one step of the given kind on one of its tables, recording it as
 * sent, then acknowledged once the server answered OK.
 */
import type { Connection } from 'mysql2/promise';
import type { Rng } from '../../../faults/prng.js';
import { isServerAnswer } from '../load-errors.js';
import type { LifecycleKindName } from '../load-mix.js';
import type { AckedSteps } from './acked-steps.js';
import { LIFECYCLE_KINDS } from './kinds.js';
import { signature, type ObjectState } from './table-state.js';

export class LifecycleClient {
  private readonly states = new Map<string, ObjectState>();

  constructor(
    private readonly client: number,
    private readonly kinds: readonly LifecycleKindName[],
    private readonly steps: AckedSteps,
    private readonly rng: Rng,
  ) {}

  /** Drops every table of the client's kinds; each is tracked once its drop was acknowledged. */
  async reset(connection: Connection): Promise<void> {
    for (const kind of this.kinds) {
      for (const table of LIFECYCLE_KINDS[kind].tables(this.client)) {
        await connection.query(`DROP TABLE IF EXISTS ${table}`);
        this.states.set(table, null);
        this.steps.track(table, kind, this.client, signature(null));
      }
    }
  }

  /** One step of `kind` on one of its tables; resolves once the server acknowledged it. */
  async step(connection: Connection, kind: LifecycleKindName): Promise<void> {
    const tables = LIFECYCLE_KINDS[kind].tables(this.client);
    const table = tables[this.rng.int(tables.length)]!;
    if (!this.states.has(table)) throw new Error(`${table} was not reset before its first step`);
    const step = LIFECYCLE_KINDS[kind].nextStep(table, this.states.get(table)!, this.rng);
    this.steps.send(table, signature(step.next));
    try {
      await connection.query(step.sql, step.values);
    } catch (error) {
      if (isServerAnswer(error)) this.steps.refused(table); // else it may or may not have happened
      throw error;
    }
    this.steps.ack(table);
    this.states.set(table, step.next);
  }
}
