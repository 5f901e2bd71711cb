/**
 * What the disk's order log says about a cycle's checkpoint (rig/cycle/device-order.ts): which
 * write brought the durable checkpoint block, what made it durable, and when violating page
 * writes arrived.
 */
import t from 'tap';
import type { OrderEvent } from '../../faults/order-log.js';
import { describeDeviceOrder, deviceRangesOf, REDO_LOG, withArrival } from '../../rig/cycle/device-order.js';
import type { ExtentMap, MappedFile } from '../../rig/pages/extent-map.js';
import type { WriteOrderViolation } from '../../rig/results/types.js';

const LOG_AT = 1 << 20;
const log: MappedFile = {
  rel: './ib_logfile0', kind: null, size: 1 << 20, pageSize: null, firstPage: 0,
  extents: [{ logical: 0, physical: LOG_AT, length: 8192, unwritten: false }, { logical: 8192, physical: 4 << 20, length: 8192, unwritten: false }],
};
const map: ExtentMap = { mountPoint: '/m', datadir: '/m/d', files: [log], byDevice: log.extents.map((e) => ({ ...e, file: log })) };
const w = (seq: number, offset: number, tUs: number, length = 4096): OrderEvent => ({ kind: 'write', seq, offset, length, tUs });
const f = (boundary: number, number: number, tUs: number): OrderEvent => ({ kind: 'flush', boundary, number, tUs });

t.test('device ranges follow the file extents', async (t) => {
  t.same(deviceRangesOf(map, './ib_logfile0', 4096, 64), [[LOG_AT + 4096, 64]]);
  t.same(deviceRangesOf(map, './ib_logfile0', 8000, 400), [[LOG_AT + 8000, 192], [4 << 20, 208]]);
  t.same(deviceRangesOf(map, './nope', 0, 64), []);
});

t.test('the durable checkpoint write, the flush that made it durable, and the flushes after it', async (t) => {
  const events: OrderEvent[] = [
    w(1, LOG_AT + 4096, 100), f(2, 1, 110), // an earlier checkpoint in the same block
    w(2, LOG_AT + 4096, 200), w(3, 9 << 20, 205), f(4, 2, 210),
    w(4, 9 << 20, 300), f(5, 3, 310),
    w(5, LOG_AT + 4096, 400), // pending: not the durable one
    { kind: 'cut', next: 6, tUs: 500 },
  ];
  t.same(describeDeviceOrder(events, map, { rel: REDO_LOG, block: 4096 }), {
    events: 9, firstEventUs: 100, cutUs: 500,
    checkpointWrite: { seq: 2, atUs: 200 },
    checkpointDurableAt: { by: 'flush', flush: 2, boundary: 4, atUs: 210 },
    lastFlush: { flush: 3, boundary: 5, atUs: 310 },
    flushesSinceCheckpoint: 1,
    retired: 0,
  });
});

t.test('a checkpoint the journal bound retired, or one older than the log', async (t) => {
  const retired: OrderEvent[] = [w(7, LOG_AT + 4096, 10), { kind: 'retire', seq: 8, count: 2, tUs: 20 }, w(9, 9 << 20, 30)];
  t.match(describeDeviceOrder(retired, map, { rel: REDO_LOG, block: 4096 }), { checkpointWrite: { seq: 7 }, checkpointDurableAt: { by: 'retire', flush: null, boundary: 9 }, lastFlush: null, retired: 2 });
  const before = describeDeviceOrder([w(9, 9 << 20, 30), f(10, 5, 40)], map, { rel: REDO_LOG, block: 4096 });
  t.match(before, { checkpointWrite: null, checkpointDurableAt: null, flushesSinceCheckpoint: null });
  t.match(describeDeviceOrder([], map, null), { events: 0, firstEventUs: null, cutUs: null });
});

t.test('a durable cache: a checkpoint write is durable as it completes, an uncompleted one is pending', async (t) => {
  const c = (seq: number, tUs: number): OrderEvent => ({ kind: 'complete', seq, tUs });
  const events: OrderEvent[] = [w(1, LOG_AT + 4096, 100), c(1, 150), w(2, 9 << 20, 160), f(3, 1, 170), w(3, LOG_AT + 4096, 200), { kind: 'cut', next: 4, tUs: 300 }];
  t.match(describeDeviceOrder(events, map, { rel: REDO_LOG, block: 4096 }), { checkpointWrite: { seq: 1 }, checkpointDurableAt: { by: 'complete', flush: null, boundary: 2, atUs: 150 } }, 'seq 3 never completed');
});

t.test("MySQL's checkpoint is looked for in the redo file that holds it", async (t) => {
  const REDO_AT = 12 << 20;
  const redo: MappedFile = { rel: './#innodb_redo/#ib_redo7', kind: null, size: 3 << 20, pageSize: null, firstPage: 0, extents: [{ logical: 0, physical: REDO_AT, length: 3 << 20, unwritten: false }] };
  const both: ExtentMap = { ...map, files: [log, redo] };
  const events: OrderEvent[] = [w(1, REDO_AT, 100, 2048), f(2, 1, 110), w(2, REDO_AT + 512, 200, 512), f(3, 2, 210), w(3, REDO_AT + 1536, 300, 512)];
  t.match(describeDeviceOrder(events, both, { rel: redo.rel, block: 512 }), { checkpointWrite: { seq: 2 }, checkpointDurableAt: { flush: 2 } }, 'checkpoint 1, block 512');
  t.match(describeDeviceOrder(events, both, { rel: redo.rel, block: 1536 }), { checkpointWrite: { seq: 1 }, checkpointDurableAt: { flush: 1 } }, 'checkpoint 2: its pending write is not the durable one');
  t.match(describeDeviceOrder(events, both, { rel: REDO_LOG, block: 4096 }), { checkpointWrite: null }, 'not in ib_logfile0');
});

t.test('violations get the time their write reached the disk, where the log kept it', async (t) => {
  const v = (seq: number): WriteOrderViolation => ({ file: './ibdata1', page: 255, durableLsn: 1, pendingLsn: 2, seq, offset: 0, length: 65536, coveredWrites: 1, free: false });
  t.same(withArrival([v(3), v(99)], [w(3, 0, 777)]), [{ ...v(3), arrivedUs: 777 }, v(99)]);
});

t.test('a full order log (2^18 events) is read without overflowing the call stack', async (t) => {
  const events: OrderEvent[] = [w(1, LOG_AT + 4096, 1), f(2, 1, 2)];
  for (let seq = 2; events.length < 1 << 18; seq++) events.push(w(seq, 9 << 20, seq + 10));
  events.push({ kind: 'cut', next: 1 << 18, tUs: 1 << 20 });
  t.match(describeDeviceOrder(events, map, { rel: REDO_LOG, block: 4096 }), { checkpointWrite: { seq: 1 }, lastFlush: { boundary: 2 }, retired: 0 });
});
