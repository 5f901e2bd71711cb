/**
 * An explore cycle's recording made ahead of its turn: while one explore cycle's states are
 * judged, the next cycle of the run records its load, so a campaign of several explore cycles
 * waits on its first recording only (each recording's CPU still competes with the states judged
 * beside it; bench/explore.js measures both ways). Only the cycle next in the run's order is
 * recorded ahead, only when it is an explore cycle, and only once the cycle before it has its own
 * recording: two recordings never run at once, and no live cycle or perf pair runs beside one.
 *
 * A recording made ahead is made as one made in its turn: the same settings, seed and folder. Its
 * load shares the cores with the judging, so it runs slower until the cut at its trigger and the
 * recording holds fewer writes (docs/guide/explore.md). Interrupted, or stopped because the cycle before it failed, it removes what it made (as any
 * interrupted recording does: rig/explore/record-load.ts) and its cycle is recorded again in its
 * turn, by this run or by --resume.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RecordedLoad } from '../explore/record-load.js';
import { mountsAtOrBelow } from '../../faults/system.js';
import type { PlannedCycle } from './types.js';

export interface Recorded {
  recorded: RecordedLoad;
  ms: number; // the recording's own time
}

export class RecordingAhead {
  private readonly controller = new AbortController();
  readonly recorded: Promise<Recorded>;

  /** `record` makes the recording in `dir`, stopped by the signal it is given. */
  constructor(
    readonly cycle: PlannedCycle,
    private readonly dir: string,
    record: (signal: AbortSignal) => Promise<Recorded>,
    campaignSignal: AbortSignal,
  ) {
    this.recorded = record(AbortSignal.any([campaignSignal, this.controller.signal]));
    this.recorded.catch(() => undefined); // taken in its cycle's turn, or dropped by stop()
  }

  /** Stops the recording if it still runs and waits for its teardown; what it made is removed. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.recorded.catch(() => undefined);
    // finished before it was stopped: no state was judged from it
    if (!mountsAtOrBelow(resolve(this.dir)).length) rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The cycle to record ahead while `current` is judged: the run's next cycle not yet finished,
 * when it is an explore cycle; none after a live cycle or perf pair, or at the run's end.
 */
export function cycleToRecordAhead(
  cycles: PlannedCycle[],
  current: PlannedCycle,
  finished: (cycle: PlannedCycle) => boolean,
  explores: (cycle: PlannedCycle) => boolean,
): PlannedCycle | null {
  const next = cycles.slice(cycles.indexOf(current) + 1).find((c) => !finished(c));
  return next && explores(next) ? next : null;
}
