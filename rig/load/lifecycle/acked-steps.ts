/**
 * The client side of the lifecycle ledger: per table, the state after each acknowledged step (its
 * signature, in order, starting from the state the client left it in before its first step) and
 * the state the step in flight would leave, if any. A statement whose connection died before it
 * answered stays in flight: it may or may not have happened. A statement the server refused
 * changed nothing, so it leaves no trace.
 */
import type { LifecycleKindName } from '../load-mix.js';

export interface TableSteps {
  table: string;
  kind: LifecycleKindName;
  client: number;
  /** Signatures of the table's states: [0] before its first step, then one per acknowledged step. */
  history: string[];
  /** The signature the unacknowledged step would leave; null when no step is in flight. */
  inFlight: string | null;
}

export interface LifecycleLedger {
  acked: number; // steps acknowledged during the load
  tables: TableSteps[];
}

export class AckedSteps {
  private readonly tables = new Map<string, TableSteps>();
  private acked = 0;

  /** Starts the record of a table known to be in `state` (its reset was acknowledged). */
  track(table: string, kind: LifecycleKindName, client: number, state: string): void {
    this.tables.set(table, { table, kind, client, history: [state], inFlight: null });
  }

  send(table: string, next: string): void {
    const t = this.get(table);
    if (t.inFlight !== null) throw new Error(`${table}: a step was sent while another is in flight`);
    t.inFlight = next;
  }

  ack(table: string): void {
    const t = this.get(table);
    if (t.inFlight === null) throw new Error(`${table}: a step was acknowledged that was never sent`);
    t.history.push(t.inFlight);
    t.inFlight = null;
    this.acked += 1;
  }

  /** The server answered the step with an error: it changed nothing. */
  refused(table: string): void {
    this.get(table).inFlight = null;
  }

  get count(): number {
    return this.acked;
  }

  snapshot(): LifecycleLedger {
    const tables = [...this.tables.values()].map((t) => ({ ...t, history: [...t.history] }));
    return { acked: this.acked, tables };
  }

  private get(table: string): TableSteps {
    const t = this.tables.get(table);
    if (!t) throw new Error(`${table} is not tracked`);
    return t;
  }
}
