/**
 * targetScores (rig/explore/state-targets.ts) for doublewrite scenarios: a barrier scores the home
 * writes in flight whose copies are durable, including copies a block-layer split put half a slot
 * off the start of their request.
 */
import t from 'tap';
import type { RecordedEvent, RecordedWrite } from '../../faults/recording.js';
import { barriersOf } from '../../rig/explore/barriers.js';
import { targetScores, type TargetContext } from '../../rig/explore/state-targets.js';

const PS = 16384;
const AREA = 1 << 20; // the doublewrite area: 16 slots from here
const HOME = 8 << 20; // the tablespace

const pageImage = (page: number, lsn: number): Buffer => {
  const b = Buffer.alloc(PS, page + 1);
  b.writeUInt32BE(page, 4);
  b.writeBigUInt64BE(BigInt(lsn), 16);
  return b;
};

function recording(batchSplit: number) {
  const batch = Buffer.concat([0, 1, 2, 3].map((p) => pageImage(p, 100 + p)));
  const data = new Map<number, Buffer>();
  const events: RecordedEvent[] = [];
  let seq = 0;
  let tUs = 0;
  const write = (offset: number, bytes: Buffer) => {
    const w: RecordedWrite = { kind: 'write', seq: seq++, offset, length: bytes.length, tUs: ++tUs, dataAt: 0 };
    data.set(w.seq, bytes);
    events.push(w);
  };
  const flush = (n: number) => events.push({ kind: 'flush', boundary: seq, number: n, tUs: ++tUs });
  // the batch of copies, as one request or split mid-slot into two
  if (batchSplit) {
    write(AREA, batch.subarray(0, batchSplit));
    write(AREA + batchSplit, batch.subarray(batchSplit));
  } else write(AREA, batch);
  flush(1);
  flush(2); // the copies are durable from barrier 2 on
  for (const p of [0, 1, 2, 3]) write(HOME + p * PS, pageImage(p, 100 + p)); // the home writes
  flush(3); // barrier 3: all four home writes pending, each with a durable copy
  return { rec: { path: 'x', events, bytes: 0, ended: 'open' as const }, data };
}

const ctx = (data: Map<number, Buffer>): TargetContext => ({
  expectation: 'recovers', doublewrite: true, pageSize: PS, atomicUnit: 4096,
  copyRanges: [{ offset: AREA, length: 16 * PS }], pageRanges: [{ offset: HOME, length: 64 * PS }],
  readData: (w) => data.get(w.seq)!,
});

t.test('one request per batch: every home write in flight has its durable copy', async (t) => {
  const { rec, data } = recording(0);
  t.equal(targetScores(barriersOf(rec), ctx(data)).get(3), 4);
});

t.test('a batch split 1.5 slots in: the copies after the split count, the one it cut does not', async (t) => {
  const { rec, data } = recording(PS + PS / 2);
  const scores = targetScores(barriersOf(rec), ctx(data));
  t.equal(scores.get(3), 3, 'pages 0, 2 and 3 have whole durable copies; page 1 is in neither request whole');
});
