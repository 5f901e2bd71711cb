/** Counts events into fixed buckets of time since a start: commits per 250 ms for the report. */
import type { ThroughputBucket } from './types.js';

export class Throughput {
  private readonly counts: number[] = [];
  private readonly start: number;

  constructor(
    readonly bucketMs = 250,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.start = now();
  }

  elapsedMs(): number {
    return this.now() - this.start;
  }

  count(n = 1): void {
    const index = Math.floor(this.elapsedMs() / this.bucketMs);
    while (this.counts.length <= index) this.counts.push(0);
    this.counts[index] = (this.counts[index] ?? 0) + n;
  }

  /** Every bucket from the start to the last event, empty ones included. */
  buckets(): ThroughputBucket[] {
    return this.counts.map((commits, i) => ({ tMs: i * this.bucketMs, commits }));
  }
}
