/**
 * The client side of the ledger: per client, the highest seq whose COMMIT returned OK. A commit
 * whose COMMIT failed or never answered is never recorded, even though it may have landed.
 */
export class AckedCommits {
  private readonly maxSeq = new Map<number, number>();
  private acked = 0;

  /** The seq read back from the ledger when a client starts: committed before this load. */
  begin(client: number, seq: number): void {
    this.maxSeq.set(client, seq);
  }

  ack(client: number, seq: number): void {
    const previous = this.maxSeq.get(client);
    if (previous !== undefined && seq !== previous + 1) {
      throw new Error(`client ${client} acknowledged seq ${seq} after ${previous}`);
    }
    this.maxSeq.set(client, seq);
    this.acked += 1;
  }

  get count(): number {
    return this.acked;
  }

  snapshot(): Map<number, number> {
    return new Map(this.maxSeq);
  }
}
