/**
 * The rule that tells a server which has stopped for good from one that is slow: a starting
 * server stalls when, for a whole window, its disk took no request and had none in flight, the
 * process made no read or write call, and its threads together used at most a small share of one
 * core (the few wake-ups of its sleeping background threads). Recovery reads and writes pages and
 * so never goes a window without I/O; a server that hangs on a page it cannot read sleeps in every
 * thread. The samples are given (./server-activity.ts reads them), so the rule is tested alone.
 */

export interface ActivitySample {
  atMs: number; // when it was read, on any clock that does not jump back
  cpuMs: number; // the process's CPU time so far, all its threads together
  io: readonly number[]; // counters that move with any I/O: read and write calls, disk requests done
  inFlight: number; // disk requests under way at the moment of reading
}

/** What a stall is judged on, for the record: the quiet window and the CPU spent in it. */
export interface Stall {
  sinceMs: number; // the window's first sample, on the samples' clock
  forMs: number;
  cpuMs: number;
}

/** At most this share of one core in a quiet window: 2%, 20 ms a second. */
export const STALL_CPU_SHARE = 0.02;

export class StallWatch {
  private quiet: ActivitySample[] = []; // since the last I/O, oldest first
  found: Stall | null = null;

  constructor(
    readonly windowMs: number,
    readonly cpuShare = STALL_CPU_SHARE,
  ) {
    if (!(windowMs > 0)) throw new RangeError(`a stall window must be positive, not ${windowMs}`);
  }

  /** The stall, once the samples show one; null until then. A null sample starts the watch over. */
  observe(sample: ActivitySample | null): Stall | null {
    if (this.found) return this.found;
    const last = this.quiet[this.quiet.length - 1];
    if (!sample || sample.inFlight > 0 || !last || !sameCounts(last.io, sample.io) || sample.atMs < last.atMs) {
      this.quiet = sample && sample.inFlight === 0 ? [sample] : [];
      return null;
    }
    this.quiet.push(sample);
    // keep the newest sample that is at least a window old as the window's start
    while (this.quiet.length > 2 && sample.atMs - this.quiet[1]!.atMs >= this.windowMs) this.quiet.shift();
    const from = this.quiet[0]!;
    const forMs = sample.atMs - from.atMs;
    const cpuMs = sample.cpuMs - from.cpuMs;
    if (forMs < this.windowMs || cpuMs > this.cpuShare * forMs) return null;
    this.found = { sinceMs: from.atMs, forMs, cpuMs };
    return this.found;
  }
}

function sameCounts(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}
