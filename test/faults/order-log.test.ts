/** The order log the helper dumps at the cut (faults/order-log.ts): its format and its refusals. */
import t from 'tap';
import { encodeOrderLog, parseOrderLog, type OrderEvent } from '../../faults/order-log.js';

const events: OrderEvent[] = [
  { kind: 'write', seq: 41, offset: 1 << 30, length: 1 << 20, tUs: 1_764_500_000_123_456 },
  { kind: 'retire', seq: 41, count: 3, tUs: 1_764_500_000_123_457 },
  { kind: 'flush', boundary: 42, number: 17, tUs: 1_764_500_000_123_999 },
  { kind: 'cut', next: 43, tUs: 1_764_500_000_124_000 },
];

t.test('events survive the format, times as whole microseconds', async (t) => {
  t.same(parseOrderLog(encodeOrderLog(events)), events);
  t.same(parseOrderLog(encodeOrderLog([])), []);
});

t.test('a file that is not an order log, or is cut short, is refused with its name', async (t) => {
  t.throws(() => parseOrderLog(Buffer.from('PFJ1xxxxxxxxxxxx'), 'x.bin'), /x\.bin is not a power-fail disk order log/);
  const data = encodeOrderLog(events);
  t.throws(() => parseOrderLog(data.subarray(0, data.length - 1)), /not 4 x 32/);
  const odd = Buffer.from(data);
  odd.writeUInt32LE(9, 12);
  t.throws(() => parseOrderLog(odd), /event 0 has unknown kind 9/);
});
