/**
 * One load client's lifecycle tables: at the start it drops them (so it knows they are absent),
 * or, for a kind whose tables the prepared image holds, checks that each is as prepared; then each
 * call to step() runs one step of the given kind on one of its tables, recording it as sent, then
 * acknowledged once the server answered OK.
 */
import type { Connection } from 'mysql2/promise';
import type { Rng } from '../../../faults/prng.js';
import { isServerAnswer } from '../load-errors.js';
import type { LifecycleKindName } from '../load-mix.js';
import type { AckedSteps } from './acked-steps.js';
import { LIFECYCLE_KINDS } from './kinds.js';
import { observeTable } from './observe-table.js';
import { signature, type ObjectState } from './table-state.js';

export class LifecycleClient {
  private readonly states = new Map<string, ObjectState>();

  constructor(
    private readonly client: number,
    private readonly kinds: readonly LifecycleKindName[],
    private readonly steps: AckedSteps,
    private readonly rng: Rng,
  ) {}

  /** Makes every table of the client's kinds a known state, and tracks it from there. */
  async reset(connection: Connection, schema: string): Promise<void> {
    for (const kind of this.kinds) {
      const prepared = LIFECYCLE_KINDS[kind].prepared;
      for (const table of LIFECYCLE_KINDS[kind].tables(this.client)) {
        const state = prepared ? await this.adopt(connection, schema, table, prepared(table).next) : await this.drop(connection, table);
        this.states.set(table, state);
        this.steps.track(table, kind, this.client, signature(state));
      }
    }
  }

  private async drop(connection: Connection, table: string): Promise<ObjectState> {
    await connection.query(`DROP TABLE IF EXISTS ${table}`);
    return null;
  }

  /** A table of the prepared image must be as prepared: a load never starts from an unknown state. */
  private async adopt(connection: Connection, schema: string, table: string, state: ObjectState): Promise<ObjectState> {
    const seen = await observeTable(connection, schema, table);
    const expected = signature(state);
    if (seen.signature !== expected || seen.problems.length) {
      throw new Error(`${schema}.${table} holds "${seen.signature}"${seen.problems.length ? ` (${seen.problems.join('; ')})` : ''}, not "${expected}" as the prepared dataset made it; prepare the dataset again before this load`);
    }
    return state;
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
