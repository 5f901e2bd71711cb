/**
 * A MariaDB 10.8+ redo log's circular body (ib_logfile0 after its header), addressed by LSN, or
 * the part of it read from the file so far. The redo parser (./redo-file-ops.ts) reads records
 * through it and its memo (./redo-parse-memo.ts) compares bytes through it.
 */

/** A read past the part of the log that was read from the file: read more and parse again. */
export class BeyondWindow extends Error {}

/**
 * `body` holds the bytes from `startLsn` on, in LSN order. Holding the whole body, it wraps as the
 * file does; holding part, a read past it throws BeyondWindow.
 */
export class CircularLog {
  constructor(
    readonly capacity: number,
    readonly firstLsn: number,
    private readonly startLsn: number,
    private readonly body: Uint8Array,
  ) {}

  /** How many times the log has wrapped at `lsn`: the sequence bit flips with each. */
  lap(lsn: number): number {
    return Math.floor((lsn - this.firstLsn) / this.capacity);
  }

  /** How many bytes from `lsn` on the log holds in order (the whole body, when it wraps). */
  available(lsn: number): number {
    const i = lsn - this.startLsn;
    if (this.body.length === this.capacity) return this.capacity;
    return i < 0 ? 0 : Math.max(0, this.body.length - i);
  }

  at(lsn: number): number {
    const i = lsn - this.startLsn;
    if (this.body.length === this.capacity) return this.body[((i % this.capacity) + this.capacity) % this.capacity]!;
    if (i < 0 || i >= this.body.length) throw new BeyondWindow();
    return this.body[i]!;
  }

  /** `length` bytes from `lsn`: a view of the body, or a copy where they wrap around its end. */
  slice(lsn: number, length: number): Uint8Array {
    const i = lsn - this.startLsn;
    if (this.body.length < this.capacity) {
      if (i < 0 || i + length > this.body.length) throw new BeyondWindow();
      return this.body.subarray(i, i + length);
    }
    const start = ((i % this.capacity) + this.capacity) % this.capacity;
    if (start + length <= this.capacity) return this.body.subarray(start, start + length);
    const out = new Uint8Array(length);
    out.set(this.body.subarray(start));
    out.set(this.body.subarray(0, length - (this.capacity - start)), this.capacity - start);
    return out;
  }
}
