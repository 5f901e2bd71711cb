/**
 * barriersOf (rig/explore/barriers.ts) and pickStates (rig/explore/pick-states.ts), over seeded
 * random recordings: every barrier's durable prefix and pending writes are exactly what a live
 * disk would hold at that flush, and every pick comes back in recording order, within bounds.
 */
import t from 'tap';
import { createRng, type Rng } from '../../faults/prng.js';
import type { RecordedEvent, Recording } from '../../faults/recording.js';
import { barriersOf } from '../../rig/explore/barriers.js';
import { pickStates, planSeedFor } from '../../rig/explore/pick-states.js';
import { EXPLORE_PICKS } from '../../rig/results/types.js';

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

/** Writes and flushes as a disk would record them, ended by a cut, a truncation, or nothing. */
function randomRecording(rng: Rng): Recording {
  const events: RecordedEvent[] = [];
  let seq = 0;
  let tUs = 1_000_000;
  let flushes = 0;
  const n = 1 + rng.int(120);
  for (let i = 0; i < n; i++) {
    tUs += 1 + rng.int(500);
    if (rng.next() < 0.3) events.push({ kind: 'flush', boundary: seq, number: ++flushes, tUs });
    else events.push({ kind: 'write', seq: seq++, offset: 4096 * rng.int(1000), length: 4096 * (1 + rng.int(8)), tUs, dataAt: 0 });
  }
  const end = rng.int(3);
  if (end === 0) events.push({ kind: 'cut', next: seq, tUs: tUs + 1 });
  if (end === 1) events.push({ kind: 'truncated', next: seq, tUs: tUs + 1 });
  return { path: 'x', events, bytes: 0, ended: end === 0 ? 'cut' : end === 1 ? 'truncated' : 'open' };
}

t.test('each barrier holds the writes before the previous flush durable and the rest since pending', async (t) => {
  for (const seed of SEEDS) {
    const recording = randomRecording(createRng(seed));
    const b = barriersOf(recording);
    const writes = recording.events.filter((e) => e.kind === 'write');
    const flushes = recording.events.filter((e) => e.kind === 'flush');
    t.equal(b.flushes, flushes.length, `seed ${seed}: flush count`);
    t.same(b.writes, writes, `seed ${seed}: every write, in order`);
    const cut = recording.ended === 'cut' ? 1 : 0;
    t.equal(b.barriers.length + b.empty, flushes.length + cut, `seed ${seed}: one barrier per flush, and the cut`);
    for (const barrier of b.barriers) {
      const at = barrier.kind === 'flush' ? flushes[barrier.index - 1]! : recording.events.at(-1)!;
      const previous = barrier.index > 1 ? flushes[barrier.index - 2] : undefined;
      const durableBelow = previous && previous.kind === 'flush' ? previous.boundary : 0;
      const before = at.kind === 'flush' ? at.boundary : (at as { next: number }).next;
      t.equal(barrier.tUs, at.tUs, `seed ${seed} barrier ${barrier.index}: its moment`);
      t.equal(barrier.durableCount, writes.filter((w) => w.kind === 'write' && w.seq < durableBelow).length, `seed ${seed} barrier ${barrier.index}: durable`);
      t.same(barrier.pending.map((w) => w.seq), writes.flatMap((w) => (w.kind === 'write' && w.seq >= durableBelow && w.seq < before ? [w.seq] : [])), `seed ${seed} barrier ${barrier.index}: pending`);
      t.ok(barrier.pending.length > 0, 'no barrier without pending writes');
    }
    if (recording.ended !== 'cut') t.notOk(b.barriers.some((x) => x.kind === 'cut'), `seed ${seed}: no cut barrier without a cut`);
  }
});

t.test('picks come back in recording order, as many as asked or as there are, seeded', async (t) => {
  for (const seed of SEEDS.slice(0, 60)) {
    const b = barriersOf(randomRecording(createRng(seed)));
    const n = 1 + (seed % 15);
    for (const pick of EXPLORE_PICKS) {
      const score = (x: { index: number }) => (x.index % 3 === 0 ? 0 : x.index);
      const picked = pickStates(b.barriers, n, pick, seed, score);
      const again = pickStates(b.barriers, n, pick, seed, score);
      t.same(picked.map((p) => [p.barrier.index, p.planSeed]), again.map((p) => [p.barrier.index, p.planSeed]), `${pick} seed ${seed}: the same picks again`);
      for (let i = 1; i < picked.length; i++) t.ok(picked[i - 1]!.barrier.index <= picked[i]!.barrier.index, `${pick} seed ${seed}: in order`);
      const keys = picked.map((p) => `${p.barrier.index}:${p.planSeed}`);
      t.equal(new Set(keys).size, keys.length, `${pick} seed ${seed}: no state twice`);
      const best = Math.max(0, ...b.barriers.map(score));
      const floor = Math.max(1, Math.ceil(best / 4));
      const usable = pick === 'targeted' ? b.barriers.filter((x) => score(x) >= floor).length : b.barriers.length;
      const expected = pick === 'every' ? Math.min(n, usable) : usable ? n : 0;
      t.equal(picked.length, expected, `${pick} seed ${seed}: ${expected} states`);
      if (pick === 'targeted') {
        t.ok(picked.every((p) => (p.score ?? 0) >= floor), `targeted seed ${seed}: only barriers that score at least a quarter of the best`);
        if (picked.length) t.ok(picked.some((p) => p.score === best), `targeted seed ${seed}: the best barrier is among them`);
      }
    }
  }
});

t.test('a plan seed names its barrier and repeat', async (t) => {
  const seeds = new Set<number>();
  for (let barrier = 1; barrier <= 300; barrier++) for (let repeat = 0; repeat < 3; repeat++) seeds.add(planSeedFor(7, barrier, repeat));
  t.equal(seeds.size, 900, 'no two states of one recording share a plan seed');
  t.equal(planSeedFor(7, 12, 1), planSeedFor(7, 12, 1));
});
