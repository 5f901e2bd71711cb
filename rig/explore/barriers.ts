/**
 * The crash moments of a recording. Barrier k is the moment flush k reached the disk: every write
 * before the previous flush is durable, and the writes since it are pending, each free to land,
 * drop or tear (the volatile-cache model of the live disk, faults/crash-plan.ts). A recording that
 * ends in a cut has one more barrier, the cut itself, with the writes after the last flush pending.
 * A recording cut short (its bound reached, or the helper gone mid-append) ends at its last flush:
 * what came after is not known whole. Barriers with nothing pending are dropped: their crash image
 * is the previous barrier's with every pending write landed.
 */
import type { Recording, RecordedWrite } from '../../faults/recording.js';

export interface Barrier {
  index: number; // 1-based, in recording order: flush k, or the cut after the last flush
  kind: 'flush' | 'cut';
  tUs: number; // when it reached the disk (monotonic microseconds): the crash moment
  durableCount: number; // the first durableCount recorded writes are durable
  pending: RecordedWrite[]; // the writes since the previous flush, in arrival order
}

export interface Barriers {
  barriers: Barrier[]; // with at least one pending write
  flushes: number; // flushes in the recording
  empty: number; // barriers with nothing pending (judged as their predecessor's all-landed state)
  writes: RecordedWrite[]; // every recorded write, in arrival order
  endedBy: Recording['ended'];
}

export function barriersOf(recording: Recording): Barriers {
  const writes: RecordedWrite[] = [];
  const barriers: Barrier[] = [];
  let durableCount = 0;
  let flushes = 0;
  let empty = 0;
  const close = (kind: Barrier['kind'], tUs: number): void => {
    const index = flushes + (kind === 'cut' ? 1 : 0);
    const pending = writes.slice(durableCount);
    if (pending.length) barriers.push({ index, kind, tUs, durableCount, pending });
    else empty += 1;
  };
  for (const event of recording.events) {
    if (event.kind === 'write') writes.push(event);
    else if (event.kind === 'flush') {
      flushes += 1;
      close('flush', event.tUs);
      durableCount = writes.length;
    } else if (event.kind === 'cut') close('cut', event.tUs);
  }
  return { barriers, flushes, empty, writes, endedBy: recording.ended };
}
