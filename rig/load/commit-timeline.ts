/**
 * When each client's transactions began and were acknowledged, on the monotonic clock the disk's
 * recording uses (faults/recording.ts), so that a crash state rebuilt at a recorded barrier can be
 * held to the commits of that moment: every commit acknowledged before it must be there, and none
 * begun after it can be.
 */

/** Microseconds on CLOCK_MONOTONIC, the clock the disk helper stamps its recording with. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** What the ledger may hold at one moment: per client, the least and the most it may store. */
export interface LedgerAt {
  acked: Map<number, number>; // highest seq acknowledged before the moment (or read back at start)
  ackedCount: number; // commits of this load acknowledged before the moment
  begun: Map<number, number>; // highest seq whose transaction began before the moment
}

type Event = { tUs: number; client: number; seq: number };

export class CommitTimeline {
  private readonly joined: Event[] = []; // the seq read back when a client joined the ledger
  private readonly begins: Event[] = [];
  private readonly acks: Event[] = [];

  join(client: number, seq: number, tUs = monotonicUs()): void {
    this.joined.push({ tUs, client, seq });
  }

  begin(client: number, seq: number, tUs = monotonicUs()): void {
    this.begins.push({ tUs, client, seq });
  }

  ack(client: number, seq: number, tUs = monotonicUs()): void {
    this.acks.push({ tUs, client, seq });
  }

  /**
   * The ledger's bounds at tUs. An acknowledgement is stamped when the client saw it, after the
   * server sent it, so `acked` may miss a commit that was durable by then (never the other way);
   * a transaction is stamped before its first statement is sent, so `begun` is an upper bound.
   */
  at(tUs: number): LedgerAt {
    const acked = new Map<number, number>();
    const begun = new Map<number, number>();
    for (const e of this.joined) {
      if (e.tUs >= tUs) continue;
      acked.set(e.client, e.seq);
      begun.set(e.client, e.seq);
    }
    let ackedCount = 0;
    for (const e of this.acks) {
      if (e.tUs >= tUs) break;
      acked.set(e.client, e.seq);
      ackedCount += 1;
    }
    for (const e of this.begins) {
      if (e.tUs >= tUs) break;
      begun.set(e.client, e.seq);
    }
    return { acked, ackedCount, begun };
  }

  get size(): number {
    return this.acks.length;
  }
}
