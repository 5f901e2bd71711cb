/**
 * When a starting server has stalled (StallWatch): a whole window with no I/O, no disk request in
 * flight and at most 2% of a core, judged on the latest window; any I/O or an unreadable sample
 * starts the window over. The samples are given, so each case is the one named; a seeded property
 * holds the watch to a brute-force reading of the same rule over random sample runs.
 */
import t from 'tap';
import { createRng } from '../../faults/prng.js';
import { STALL_CPU_SHARE, StallWatch, type ActivitySample } from '../../rig/runtime/stall-watch.js';

/** Samples every `everyMs` from 0 to `untilMs`, each from `at(ms)`; the first stall's time, or null. */
function run(watch: StallWatch, everyMs: number, untilMs: number, at: (ms: number) => Omit<ActivitySample, 'atMs'> | null): number | null {
  for (let ms = 0; ms <= untilMs; ms += everyMs) {
    const sample = at(ms);
    if (watch.observe(sample ? { atMs: ms, ...sample } : null)) return ms;
  }
  return null;
}

const quiet = (cpuMs: number): Omit<ActivitySample, 'atMs'> => ({ cpuMs, io: [7, 3, 4096, 0], inFlight: 0 });

t.test('a server asleep in every thread stalls once a whole window has passed', async (t) => {
  const watch = new StallWatch(10_000);
  // 5 ms of CPU a second: the wake-ups of sleeping background threads, as the hung MySQL showed
  t.equal(run(watch, 500, 60_000, (ms) => quiet(400 + ms / 200)), 10_000, 'at the first sample a window after the first');
  t.same(watch.found, { sinceMs: 0, forMs: 10_000, cpuMs: 50 });
  t.same(watch.observe({ atMs: 70_000, cpuMs: 9999, io: [1], inFlight: 3 }), watch.found, 'a stall found stays found');
});

t.test('any I/O starts the window over', async (t) => {
  for (const [index, name] of ['read calls', 'write calls', 'bytes read', 'disk requests done'].entries()) {
    const watch = new StallWatch(10_000);
    const at = (ms: number) => {
      const io = [7, 3, 4096, 0];
      if (ms >= 8000) io[index]! += 1; // one more at 8 s, then quiet again
      return { cpuMs: 400, io, inFlight: 0 };
    };
    t.equal(run(watch, 500, 60_000, at), 18_000, `${name}: a window after the last`);
  }
});

t.test('a disk request in flight is never a stall: the server waits on the disk, not on itself', async (t) => {
  const watch = new StallWatch(10_000);
  t.equal(run(watch, 500, 120_000, (ms) => ({ ...quiet(400), inFlight: ms >= 1000 ? 1 : 0 })), null);
  const done = new StallWatch(10_000);
  t.equal(run(done, 500, 60_000, (ms) => ({ ...quiet(400), inFlight: ms >= 1000 && ms < 5000 ? 1 : 0 })), 15_000, 'the window starts once it is done');
});

t.test('a server that uses more than 2% of a core is working, however quiet its disk', async (t) => {
  t.equal(STALL_CPU_SHARE, 0.02);
  t.equal(run(new StallWatch(10_000), 500, 120_000, (ms) => quiet(ms * 0.022)), null, '2.2%: never');
  t.equal(run(new StallWatch(10_000), 500, 120_000, (ms) => quiet(ms * 0.5)), null, 'half a core: never');
  t.equal(run(new StallWatch(10_000), 500, 120_000, (ms) => quiet(ms * 0.02)), 10_000, '2% exactly: a stall');
});

t.test('CPU spent early in a quiet stretch leaves the window as it slides on', async (t) => {
  const watch = new StallWatch(10_000);
  // a core's worth for the first 3 s, then asleep
  const stalledAt = run(watch, 500, 60_000, (ms) => quiet(Math.min(ms, 3000)));
  t.equal(stalledAt, 13_000, 'a window after the busy stretch ended');
  t.same(watch.found, { sinceMs: 3000, forMs: 10_000, cpuMs: 0 });
});

t.test('an unreadable sample (the process gone, its counters unreadable) starts the watch over', async (t) => {
  const watch = new StallWatch(10_000);
  t.equal(run(watch, 500, 60_000, (ms) => (ms === 9000 ? null : quiet(400))), 19_500, 'a window after the first sample read again');
  t.throws(() => new StallWatch(0), /positive/);
});

/** The rule read directly: the first sample at which the latest quiet window shows a stall. */
function firstStall(samples: Array<ActivitySample | null>, windowMs: number): number | null {
  for (let k = 0; k < samples.length; k++) {
    const now = samples[k];
    if (!now || now.inFlight > 0) continue;
    let start = k; // the quiet run that ends at k: same counters, nothing in flight, all readable
    while (start > 0) {
      const before = samples[start - 1];
      if (!before || before.inFlight > 0 || before.io.join() !== now.io.join() || before.atMs > samples[start]!.atMs) break;
      start--;
    }
    let from = -1; // the latest sample of the run at least a window before k
    for (let j = start; j <= k; j++) if (now.atMs - samples[j]!.atMs >= windowMs) from = j;
    if (from < 0) continue;
    const forMs = now.atMs - samples[from]!.atMs;
    if (now.cpuMs - samples[from]!.cpuMs <= STALL_CPU_SHARE * forMs) return k;
  }
  return null;
}

t.test('seeded: the watch finds the first stall the rule names, at the same sample', async (t) => {
  let stalls = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const rng = createRng(seed);
    const windowMs = 1000 + rng.int(8000);
    const ioChance = rng.next() * 0.2;
    const busyChance = rng.next();
    const samples: Array<ActivitySample | null> = [];
    let atMs = 0, cpuMs = 0, io = 0;
    for (let i = 0; i < 200; i++) {
      const step = 100 + rng.int(900);
      atMs += step;
      cpuMs += rng.next() < busyChance ? rng.int(step) : rng.int(Math.ceil(step * 0.03));
      if (rng.next() < ioChance) io += 1 + rng.int(3);
      const r = rng.next();
      samples.push(r < 0.01 ? null : { atMs, cpuMs, io: [io, 0], inFlight: r < 0.03 ? 1 : 0 });
    }
    const expected = firstStall(samples, windowMs);
    const watch = new StallWatch(windowMs);
    const found = samples.findIndex((s) => watch.observe(s) !== null);
    if ((found < 0 ? null : found) !== expected) {
      t.fail(`seed ${seed}: the watch stalled at sample ${found}, the rule at ${expected}`);
      continue;
    }
    if (expected === null) continue;
    stalls++;
    const f = watch.found!;
    if (!(f.forMs >= windowMs && f.cpuMs <= STALL_CPU_SHARE * f.forMs)) t.fail(`seed ${seed}: ${JSON.stringify(f)}`);
  }
  t.ok(stalls > 30 && stalls < 270, `both outcomes were drawn (${stalls} of 300 stalled)`);
});
