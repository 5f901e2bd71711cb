/**
 * A state's crash image built as a clone in a clone store (the clean image cloned, the landed
 * pieces written over it) is byte for byte the image built in place in a working image (every
 * pending write written, then the plan applied, the working image put back afterwards), with the
 * same journal, for seeded recordings whose pending writes overlap and tear, state after state
 * as explore moves forward through a recording. Deleting the clone leaves the clean image as the
 * working image is put back to. The state's digest, from the snapshot's block digests carried
 * through the advances, is that of the image built.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloneStore } from '../../faults/clone-store.js';
import { makePlan } from '../../faults/crash-plan.js';
import { diskEnvironmentFromEnv } from '../../faults/disk-environment.js';
import { createRng } from '../../faults/prng.js';
import { encodeRecording, indexRecording, type EncodableEvent } from '../../faults/recording.js';
import { sweepDisks } from '../../faults/sweep-disks.js';
import { barriersOf } from '../../rig/explore/barriers.js';
import { StateImages } from '../../rig/explore/state-image.js';
import { blocksSha256WithOverlay } from '../../rig/explore/image-hash.js';
import { landedWrites } from '../../faults/materialize.js';
import { DIGEST_BLOCK } from '../../rig/results/crash-image-digest.js';
import { blocksDigest } from '../fixtures/blocks-digest.js';

const work = mkdtempSync(join(tmpdir(), 'rig-state-image-'));
const registryDir = join(work, 'registry');
t.teardown(async () => {
  await sweepDisks({ registryDir });
  rmSync(work, { recursive: true, force: true });
});

const IMAGE = 4 << 20;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const digestOf = (journal: { old: Buffer; new: Buffer; offset: number }[]) => createHash('sha256').update(JSON.stringify(journal.map((e) => [e.offset, sha1(e.old), sha1(e.new)]))).digest('hex');
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

/** A recording of writes in groups between flushes, many of them over the same few ranges. */
function recording(seed: number): EncodableEvent[] {
  const rng = createRng(seed);
  const events: EncodableEvent[] = [];
  let seq = 0;
  let tUs = 1;
  for (let flush = 1; flush <= 6; flush++) {
    for (let n = 1 + rng.int(12); n > 0; n--) {
      const offset = (rng.int(3) === 0 ? rng.int(8) * 16 : rng.int(IMAGE / 512 - 256)) * 512; // a third in the first 64 KiB: overlaps
      const length = (1 + rng.int(96)) * 512;
      events.push({ kind: 'write', seq: seq++, offset, tUs: tUs++, data: Buffer.alloc(length, 1 + rng.int(250)) });
    }
    events.push({ kind: 'flush', boundary: seq, number: flush, tUs: tUs++ });
  }
  for (let n = 1 + rng.int(12); n > 0; n--) {
    const offset = rng.int(IMAGE / 512 - 256) * 512;
    events.push({ kind: 'write', seq: seq++, offset, tUs: tUs++, data: Buffer.alloc((1 + rng.int(96)) * 512, 1 + rng.int(250)) });
  }
  events.push({ kind: 'cut', next: seq, tUs: tUs++ });
  return events;
}

t.test('a cloned state image is the image built in place, state after state', async (t) => {
  const store = await CloneStore.open(join(work, 'store'), 1024 ** 3, { environment: { ...diskEnvironmentFromEnv(), registryDir } });
  t.teardown(() => store.close());
  const snapshot = join(work, 'snapshot.img');
  const fd = openSync(snapshot, 'w');
  for (let at = 0; at < IMAGE; at += 65536) writeSync(fd, Buffer.alloc(65536, at / 65536), 0, 65536, at);
  ftruncateSync(fd, IMAGE + 2 * DIGEST_BLOCK + 1000); // a hole at the end, its last block short
  closeSync(fd);
  const snapshotBlocks = (await blocksSha256WithOverlay(snapshot, [])).clean;
  const differ: string[] = [];
  let states = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const path = join(work, `rec-${seed}.pfr`);
    writeFileSync(path, encodeRecording(recording(seed)));
    const { barriers, writes } = barriersOf(indexRecording(path));
    const recFd = openSync(path, 'r');
    const inPlaceDir = join(work, `in-place-${seed}`);
    const cloneDir = join(store.root, `lane-${seed}`);
    mkdirSync(inPlaceDir);
    mkdirSync(cloneDir);
    const inPlace = await StateImages.create(inPlaceDir, snapshot, writes, recFd);
    const cloned = await StateImages.create(cloneDir, snapshot, writes, recFd, { cleanCopy: true, store, snapshotBlocks });
    try {
      for (const [b, barrier] of barriers.entries()) {
        const plan = makePlan(barrier.pending, seed * 100 + b, [512, 4096, 16384][b % 3]!);
        for (const images of [inPlace, cloned]) images.advance(barrier.durableCount);
        const a = await inPlace.materialize(barrier.pending, plan);
        const c = await cloned.materialize(barrier.pending, plan);
        states++;
        if (digestOf(a) !== digestOf(c)) differ.push(`seed ${seed} barrier ${barrier.index}: journals differ`);
        if (sha(inPlace.work) !== sha(cloned.work)) differ.push(`seed ${seed} barrier ${barrier.index}: images differ`);
        // the digest from the snapshot's blocks, carried through the advances, is the image's own
        if ((await cloned.digestWith(landedWrites(c, plan))) !== blocksDigest(readFileSync(cloned.work))) differ.push(`seed ${seed} barrier ${barrier.index}: digests differ`);
        inPlace.restore(barrier.pending);
        cloned.discard();
        if (sha(inPlace.work) !== sha(join(cloneDir, 'clean.img'))) differ.push(`seed ${seed} barrier ${barrier.index}: the clean image is not the working image put back`);
      }
    } finally {
      closeSync(recFd);
      await inPlace.close();
      await cloned.close();
    }
  }
  t.ok(states >= 60, `${states} states built both ways`);
  t.same(differ, [], 'the same journal, bytes and digest every time; the clean image untouched');
});
