/**
 * A recording's barrier written out as a cut (rig/explore/barrier-cut.ts), on a small synthetic
 * recording: the image holds every write up to the barrier, pending ones included, the journal
 * gives each pending write with the bytes it overwrote, so landing none gives the durable image
 * and landing all gives the image at the barrier; the ledger is the load's at that moment.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choosePlan, landAll } from '../../faults/chosen-plan.js';
import { makePlan } from '../../faults/crash-plan.js';
import { loadJournal } from '../../faults/journal.js';
import { materializeCrashImage } from '../../faults/materialize.js';
import { encodeRecording, indexRecording, type EncodableEvent } from '../../faults/recording.js';
import { barriersOf } from '../../rig/explore/barriers.js';
import { writeBarrierCut } from '../../rig/explore/barrier-cut.js';
import { readLoadFile } from '../../rig/load/load-file.js';
import type { LoadResult } from '../../rig/load/index.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-barrier-cut-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const SIZE = 64 * 1024;
const fill = (n: number, v: number) => Buffer.alloc(n, v);
const events: EncodableEvent[] = [
  { kind: 'write', seq: 0, offset: 0, tUs: 1, data: fill(8192, 1) },
  { kind: 'flush', boundary: 1, number: 1, tUs: 2 },
  { kind: 'write', seq: 1, offset: 4096, tUs: 3, data: fill(8192, 2) }, // over the second half of write 0
  { kind: 'write', seq: 2, offset: 16384, tUs: 4, data: fill(4096, 3) },
  { kind: 'write', seq: 3, offset: 8192, tUs: 5, data: fill(4096, 4) }, // over part of write 1
  { kind: 'flush', boundary: 4, number: 2, tUs: 6 },
  { kind: 'write', seq: 4, offset: 32768, tUs: 7, data: fill(4096, 5) },
  { kind: 'cut', next: 5, tUs: 8 },
];
const recordingPath = join(dir, 'recording.pfr');
writeFileSync(recordingPath, encodeRecording(events));
const snapshot = join(dir, 'snapshot.img');
writeFileSync(snapshot, fill(SIZE, 0xee));
const barriers = barriersOf(indexRecording(recordingPath));
const load = { kind: 'builtin', ledger: true, acked: new Map([[1, 5]]), ackedCount: 5, retried: 0, bucketMs: 500, throughput: [], errors: [], durationMs: 1, endedBy: 'stopped' } as LoadResult;
const run = { snapshot, recordingPath, writes: barriers.writes, load };

/** The image a byte model gives after the first n writes. */
function model(n: number): Buffer {
  const img = fill(SIZE, 0xee);
  for (const e of events.filter((x) => x.kind === 'write').slice(0, n)) (e as { data: Buffer; offset: number }).data.copy(img, (e as { offset: number }).offset);
  return img;
}

t.test('the barrier of flush 2: three writes pending over one durable', async (t) => {
  const barrier = barriers.barriers.find((b) => b.index === 2)!;
  t.equal(barrier.pending.length, 3);
  const cycleDir = await writeBarrierCut(run, barrier, join(dir, 'b2'));
  const cut = join(cycleDir, 'cut');
  t.ok(readFileSync(join(cut, 'image.img')).equals(model(4)), 'the image at the barrier: every write up to it');
  const journal = loadJournal(join(cut, 'journal.bin'));
  t.same(journal.map((e) => [e.seq, e.offset, e.length]), [[1, 4096, 8192], [2, 16384, 4096], [3, 8192, 4096]]);
  t.ok(journal[2]!.old.equals(fill(4096, 2)), 'a pending write overwrote an earlier pending write: its old bytes are those');
  const plan = makePlan(journal, 1, 4096);
  const none = join(dir, 'none.img');
  await materializeCrashImage(join(cut, 'image.img'), journal, choosePlan(plan, 'none landed', () => []), none);
  t.ok(readFileSync(none).equals(model(1)), 'every pending write dropped: the durable image');
  const all = join(dir, 'all.img');
  await materializeCrashImage(join(cut, 'image.img'), journal, landAll(plan), all);
  t.ok(readFileSync(all).equals(model(4)), 'every pending write landed: the image at the barrier');
  t.same([...readLoadFile(join(cut, 'load.json'))!.acked], [[1, 5]], 'the ledger of that moment');
});

t.test('the cut itself: the write after the last flush pending', async (t) => {
  const barrier = barriers.barriers.at(-1)!;
  t.equal(barrier.kind, 'cut');
  const cut = join(await writeBarrierCut(run, barrier, join(dir, 'cut')), 'cut');
  t.ok(readFileSync(join(cut, 'image.img')).equals(model(5)));
  t.same(loadJournal(join(cut, 'journal.bin')).map((e) => e.seq), [4]);
});
