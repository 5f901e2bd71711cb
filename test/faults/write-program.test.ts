/**
 * Where a cut splits a write program (faults/selftest/write-program.ts): by the writes issued (the
 * FUSE disk holds the Nth write itself), or by the writes and flushes completed (the kernel path's
 * hold may find an fsync in flight, which then made nothing durable).
 */
import t from 'tap';
import { splitAtCut, splitAtFlushes, type Step } from '../../faults/selftest/write-program.js';

const w = (index: number): Step => ({ kind: 'write', write: { index, offset: index * 512, length: 512, fill: index + 1 } });
const fsync: Step = { kind: 'fsync' };
const steps: Step[] = [w(0), w(1), fsync, w(2), w(3), fsync, w(4), fsync, w(5)];
const indexes = (s: { durable: { index: number }[]; pending: { index: number }[] }) => [s.durable.map((x) => x.index), s.pending.map((x) => x.index)];

t.same(indexes(splitAtCut(steps, 4)), [[0, 1, 2, 3], []], 'held at write 4: the fsyncs before it had completed');
t.same(indexes(splitAtCut(steps, 3)), [[0, 1], [2]], 'held at write 3: write 2 pending');
t.same(indexes(splitAtFlushes(steps, 4, 2)), [[0, 1, 2, 3], []], 'four writes and both fsyncs completed');
t.same(indexes(splitAtFlushes(steps, 4, 1)), [[0, 1], [2, 3]], 'the second fsync was held: writes 2 and 3 still pending');
t.same(indexes(splitAtFlushes(steps, 6, 3)), indexes(splitAtCut(steps, 6)), 'with every fsync before the cut completed, the two agree');
t.same(indexes(splitAtFlushes(steps, 0, 0)), [[], []]);
