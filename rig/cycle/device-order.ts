/**
 * What the disk's order log adds to the write-order check: when the checkpoint block that was
 * durable at the cut reached the disk, which flush made it durable, how many flushes followed
 * before the cut, and when each violating page write arrived. All times are the disk's (wall
 * clock, microseconds), so they can be set beside a trace of the server's system calls.
 */
import type { OrderEvent } from '../../faults/order-log.js';
import type { ExtentMap } from '../pages/index.js';
import type { DeviceOrder, WriteOrderViolation } from '../results/types.js';

export const REDO_LOG = './ib_logfile0';
const CHECKPOINT_BLOCK_BYTES = 64;

/** Device byte ranges holding [fileOffset, fileOffset + length) of a file. */
export function deviceRangesOf(map: ExtentMap, rel: string, fileOffset: number, length: number): Array<[number, number]> {
  const file = map.files.find((f) => f.rel === rel);
  if (!file) return [];
  const ranges: Array<[number, number]> = [];
  for (const e of file.extents) {
    const lo = Math.max(fileOffset, e.logical);
    const hi = Math.min(fileOffset + length, e.logical + e.length);
    if (lo < hi) ranges.push([e.physical + (lo - e.logical), hi - lo]);
  }
  return ranges;
}

const touches = (w: { offset: number; length: number }, ranges: Array<[number, number]>): boolean =>
  ranges.some(([at, n]) => w.offset < at + n && at < w.offset + w.length);

const isDurableWriteOver = (e: OrderEvent, durableBelow: number, completed: ReadonlySet<number>, ranges: Array<[number, number]>): boolean =>
  e.kind === 'write' && (e.seq < durableBelow || completed.has(e.seq)) && touches(e, ranges);

/** What made a write durable: the first flush after it, the journal bound, or (a durable cache) its completion. */
const madeDurable = (e: OrderEvent, seq: number): boolean =>
  (e.kind === 'flush' && e.boundary > seq) || (e.kind === 'retire' && e.seq >= seq) || (e.kind === 'complete' && e.seq === seq);

/**
 * `checkpoint`: the redo file (./ib_logfile0, MySQL's ./#innodb_redo/#ib_redoN) and the byte offset
 * in it of the block that held the durable checkpoint.
 */
export function describeDeviceOrder(events: readonly OrderEvent[], map: ExtentMap, checkpoint: { rel: string; block: number } | null): DeviceOrder {
  const flushes = events.filter((e): e is Extract<OrderEvent, { kind: 'flush' }> => e.kind === 'flush');
  const lastFlush = flushes.at(-1) ?? null;
  // a loop, not Math.max(...events): the log keeps up to 2^18 events, past what a call's arguments hold
  let durableBelow = lastFlush?.boundary ?? 0;
  for (const e of events) if (e.kind === 'retire' && e.seq + 1 > durableBelow) durableBelow = e.seq + 1;
  const completed = new Set(events.flatMap((e) => (e.kind === 'complete' ? [e.seq] : [])));
  const ranges = checkpoint === null ? [] : deviceRangesOf(map, checkpoint.rel, checkpoint.block, CHECKPOINT_BLOCK_BYTES);
  // the durable checkpoint came from the last complete write over its block that was not pending
  let at = events.length - 1;
  while (at >= 0 && !isDurableWriteOver(events[at]!, durableBelow, completed, ranges)) at--;
  const write = at < 0 ? null : (events[at] as Extract<OrderEvent, { kind: 'write' }>);
  const durable = write ? events.slice(at).find((e) => madeDurable(e, write.seq)) : undefined;
  return {
    events: events.length,
    firstEventUs: events[0]?.tUs ?? null,
    cutUs: events.find((e) => e.kind === 'cut')?.tUs ?? null,
    checkpointWrite: write ? { seq: write.seq, atUs: write.tUs } : null,
    checkpointDurableAt: !durable ? null
      : durable.kind === 'flush' ? { by: 'flush', flush: durable.number, boundary: durable.boundary, atUs: durable.tUs }
        : durable.kind === 'complete' ? { by: 'complete', flush: null, boundary: write!.seq + 1, atUs: durable.tUs }
          : { by: 'retire', flush: null, boundary: (durable as Extract<OrderEvent, { kind: 'retire' }>).seq + 1, atUs: durable.tUs },
    lastFlush: lastFlush ? { flush: lastFlush.number, boundary: lastFlush.boundary, atUs: lastFlush.tUs } : null,
    flushesSinceCheckpoint: durable?.kind === 'flush' && lastFlush ? lastFlush.number - durable.number : null,
    retired: events.reduce((n, e) => n + (e.kind === 'retire' ? e.count : 0), 0),
  };
}

/** The violations with the time each pending write reached the disk, where the log kept it. */
export function withArrival(violations: WriteOrderViolation[], events: readonly OrderEvent[]): WriteOrderViolation[] {
  const arrived = new Map<number, number>();
  for (const e of events) if (e.kind === 'write') arrived.set(e.seq, e.tUs);
  return violations.map((v) => (arrived.has(v.seq) ? { ...v, arrivedUs: arrived.get(v.seq)! } : v));
}
