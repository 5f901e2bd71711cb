/**
 * The crash images of a recording's states, built in place. Two copies of the snapshot move forward
 * together through the recording: `clean` holds exactly the durable writes of the current barrier,
 * `work` the same plus one state's landed units while that state is judged, and whatever its
 * recovery wrote. After the judge, every range the state or its recovery touched is copied back
 * from `clean`, so the next state costs only the writes between the two barriers, not a copy of
 * the whole image. In a clone store (faults/clone-store.ts) there is no lasting `work`: each state's
 * image is a clone of `clean`, deleted once judged, and nothing is put back.
 */
import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { CrashPlan } from '../../faults/crash-plan.js';
import type { CloneStore } from '../../faults/clone-store.js';
import type { JournalEntry } from '../../faults/journal.js';
import { readAt, readInto, writeAt } from '../../faults/file-io.js';
import { applyPlan, checkPlanFits, landedWrites } from '../../faults/materialize.js';
import { readRecordedData, type RecordedWrite } from '../../faults/recording.js';
import type { DeviceRange } from '../pages/device-ranges.js';
import { DigestWorker, forgetBlocks, type BlockDigests, type Overlay } from './image-hash.js';

const RESTORE_CHUNK = 1 << 20;

export class StateImages {
  private applied = 0;
  private cleanBlocks: BlockDigests | null = null; // the clean image's block digests (./image-hash.ts)
  private readonly digester = new DigestWorker(); // started by the first digest, kept for the next
  /** The most the clone store held when a state was discarded (every lane's images), bytes. */
  peakStoreBytes = 0;
  private scratch: Buffer | null = null; // advance's and restore's buffer, kept: a fresh one per write or range made work for the garbage collector

  private constructor(
    readonly clean: string | null, // null: a one-off rebuild, never put back
    readonly work: string,
    private readonly writes: RecordedWrite[],
    private readonly recordingFd: number,
    private readonly store: CloneStore | null, // each state's `work` a clone of `clean`, made by materialize
  ) {}

  /**
   * Sparse copies of the snapshot in dir (clean.img, work.img; no clean copy for a one-off
   * rebuild). With a store, dir is a folder in it and only clean.img is copied. `snapshotBlocks`,
   * the snapshot's block digests, are the clean copy's until the first advance forgets some.
   */
  static async create(dir: string, snapshot: string, writes: RecordedWrite[], recordingFd: number, opts: { cleanCopy: boolean; store?: CloneStore; snapshotBlocks?: BlockDigests } = { cleanCopy: true }): Promise<StateImages> {
    const clean = opts.cleanCopy || opts.store ? join(dir, 'clean.img') : null;
    const work = join(dir, 'work.img');
    if (clean) await execa('cp', ['--sparse=always', snapshot, clean]);
    if (!opts.store) await execa('cp', ['--sparse=always', snapshot, work]);
    const images = new StateImages(clean, work, writes, recordingFd, opts.store ?? null);
    if (clean && opts.snapshotBlocks) images.cleanBlocks = [...opts.snapshotBlocks]; // a lane's own: advance forgets in it
    return images;
  }

  /** Whether each state's image is a clone, deleted once judged (discard), instead of put back (restore). */
  get clones(): boolean {
    return this.store !== null;
  }

  /** What the images take on disk (allocated blocks; they are sparse; a clone counts its shared blocks too). */
  allocatedBytes(): number {
    return [this.clean, this.work].reduce((n, path) => n + (path && existsSync(path) ? statSync(path).blocks * 512 : 0), 0);
  }

  /** How many recorded writes both images hold. */
  get durable(): number {
    return this.applied;
  }

  /** Writes the recorded writes up to durableCount into both images (forward only). */
  advance(durableCount: number): void {
    if (durableCount < this.applied) throw new Error(`the images hold ${this.applied} writes; they cannot go back to ${durableCount}`);
    const clean = this.clean ? openSync(this.clean, 'r+') : null;
    const work = this.store ? null : openSync(this.work, 'r+'); // a clone store's states start from clean
    try {
      for (; this.applied < durableCount; this.applied++) {
        const w = this.writes[this.applied]!;
        const data = readRecordedData(this.recordingFd, w, this.scratchBuffer());
        if (clean !== null) writeAt(clean, data, w.offset);
        if (work !== null) writeAt(work, data, w.offset);
        if (this.cleanBlocks) forgetBlocks(this.cleanBlocks, w.offset, w.length);
      }
    } finally {
      if (clean !== null) closeSync(clean);
      if (work !== null) closeSync(work);
    }
  }

  /**
   * The state's crash image in `work`: the pending writes as the disk received them (the journal
   * a live cut would have dumped, each write's old bytes as it found them), then the plan's
   * fates applied as for a live cut (faults/materialize.ts).
   */
  async materialize(pending: RecordedWrite[], plan: CrashPlan): Promise<JournalEntry[]> {
    if (this.store) return this.materializeClone(pending, plan);
    const fd = openSync(this.work, 'r+');
    const journal: JournalEntry[] = [];
    try {
      for (const w of pending) {
        const data = readRecordedData(this.recordingFd, w);
        journal.push({ seq: w.seq, offset: w.offset, length: w.length, old: readAt(fd, w.offset, w.length), new: data });
        writeAt(fd, data, w.offset);
      }
    } finally {
      closeSync(fd);
    }
    await applyPlan(this.work, journal, plan);
    return journal;
  }

  /**
   * The same crash image as a clone of `clean` with only the landed pieces written over it: what
   * applyPlan's roll-back and re-write make of the pending writes. Each write's old bytes are
   * `clean`'s under the earlier pending writes, read from `clean` (its pages cached) rather than the
   * new clone.
   */
  private materializeClone(pending: RecordedWrite[], plan: CrashPlan): JournalEntry[] {
    const clean = openSync(this.cleanPath(), 'r');
    const journal: JournalEntry[] = [];
    try {
      for (const w of pending) {
        const old = readAt(clean, w.offset, w.length);
        for (const e of journal) overlay(old, w.offset, e.new, e.offset); // the disk held the earlier pending writes
        journal.push({ seq: w.seq, offset: w.offset, length: w.length, old, new: readRecordedData(this.recordingFd, w) });
      }
    } finally {
      closeSync(clean);
    }
    checkPlanFits(journal, plan);
    this.store!.clone(this.cleanPath(), this.work);
    const fd = openSync(this.work, 'r+');
    try {
      for (const piece of landedWrites(journal, plan)) writeAt(fd, piece.data, piece.offset);
    } finally {
      closeSync(fd);
    }
    return journal;
  }

  /**
   * The blocks digest of the state's crash image, the clean image with pieces laid over it,
   * hashing only the blocks whose digest is not known from the state before. Awaited before the
   * next advance, which writes the clean image.
   */
  async digestWith(pieces: Overlay[]): Promise<string> {
    const { blocksSha256, clean } = await this.digester.digest(this.cleanPath(), pieces, this.cleanBlocks);
    this.cleanBlocks = clean;
    return blocksSha256;
  }

  /** Copies the ranges back from `clean` into `work`: the state's pending writes and its recovery's. */
  restore(ranges: Iterable<DeviceRange>): void {
    const clean = openSync(this.cleanPath(), 'r');
    const work = openSync(this.work, 'r+');
    const scratch = this.scratchBuffer();
    try {
      for (const r of ranges) {
        for (let at = 0; at < r.length; at += RESTORE_CHUNK) {
          const part = scratch.subarray(0, Math.min(RESTORE_CHUNK, r.length - at));
          readInto(clean, part, r.offset + at);
          writeAt(work, part, r.offset + at);
        }
      }
    } finally {
      closeSync(clean);
      closeSync(work);
    }
  }

  /** A clone store's state image deleted once judged: `clean` is as it was. */
  discard(): void {
    if (this.store) this.peakStoreBytes = Math.max(this.peakStoreBytes, this.store.usedBytes()); // the state's writes still there
    rmSync(this.work, { force: true });
  }

  /** The fallback when a recovery's writes are not all known: `work` becomes a copy of `clean`. */
  async resetWork(): Promise<void> {
    await execa('cp', ['--sparse=always', this.cleanPath(), this.work]);
  }

  /** Ends the digest worker; the images themselves stay where they are. */
  async close(): Promise<void> {
    await this.digester.close();
  }

  private scratchBuffer(): Buffer {
    return (this.scratch ??= Buffer.allocUnsafe(RESTORE_CHUNK));
  }

  private cleanPath(): string {
    if (!this.clean) throw new Error('a one-off rebuild keeps no clean image to put the working image back from');
    return this.clean;
  }
}

/** Copies the part of `data` (at device offset `at`) that overlaps `into` (at `offset`) into it. */
function overlay(into: Buffer, offset: number, data: Buffer, at: number): void {
  const from = Math.max(offset, at);
  const to = Math.min(offset + into.length, at + data.length);
  if (from < to) data.copy(into, from - offset, from - at, to - at);
}

/** States of one barrier whose plans land the same units have the same crash image. */
export function stateKey(durableCount: number, plan: CrashPlan): string {
  const landed = plan.writes.filter((w) => w.unitsLanded.length > 0).map((w) => `${w.seq}:${w.unitsLanded.join(',')}`);
  return `${durableCount}|${landed.join(';')}`;
}
