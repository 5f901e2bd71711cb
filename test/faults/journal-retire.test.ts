/**
 * The durable cache's journal (faults/helper/journal.c, built here with a small driver, no FUSE):
 * seeded programs of overlapping writes that complete in random order, some still in flight at
 * the cut, and every crash plan against a model of the device. A write is durable once it
 * completes; one still in flight lands unit by unit as the plan says, in arrival order with the
 * others, and never undoes a completed write, older or newer. A failure names its seed;
 * `PLAN_SEED=N` replays that one.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { makePlan, unitSpan, type CrashPlan } from '../../faults/crash-plan.js';
import { loadJournal } from '../../faults/journal.js';
import { applyPlan } from '../../faults/materialize.js';
import { createRng, type Rng } from '../../faults/prng.js';
import { ATOMIC_UNITS } from '../../faults/sizes.js';

const SIZE = 64 * 1024;
const SEEDS = process.env.PLAN_SEED ? [Number(process.env.PLAN_SEED)] : Array.from({ length: 150 }, (_, i) => i + 1);
const dir = mkdtempSync(join(tmpdir(), 'rig-journal-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const driver = join(dir, 'journal-driver');

interface Write { seq: number; offset: number; length: number; fill: number; completed: boolean }

/** Writes arriving in seq order, each completing some time later (or not before the cut), overlapping often. */
function program(rng: Rng): { writes: Write[]; commands: string[] } {
  const writes: Write[] = [];
  const inFlight: Write[] = [];
  const commands: string[] = [];
  const count = 4 + rng.int(40);
  for (let i = 0; i < count; i++) {
    const length = 512 * (1 + rng.int(32));
    const w = { seq: 10 + i, offset: 512 * rng.int((SIZE - length) / 512 + 1), length, fill: 1 + (i % 255), completed: false };
    writes.push(w);
    inFlight.push(w);
    commands.push(`w ${w.seq} ${w.offset} ${w.length} ${w.fill}`);
    while (inFlight.length && rng.next() < 0.45) {
      const [done] = inFlight.splice(rng.int(inFlight.length), 1); // completion order is the device's, not arrival's
      done!.completed = true;
      commands.push(`r ${done!.seq}`);
    }
  }
  return { writes, commands };
}

/** The model: the device before the writes, then in arrival order each completed write whole and each pending one's landed units. */
function expected(base: Buffer, writes: Write[], plan: CrashPlan): Buffer {
  const img = Buffer.from(base);
  const planned = new Map(plan.writes.map((p) => [p.seq, p]));
  for (const w of writes) {
    if (w.completed) {
      img.fill(w.fill, w.offset, w.offset + w.length);
      continue;
    }
    const { first } = unitSpan(w.offset, w.length, plan.atomicUnit);
    for (const u of planned.get(w.seq)!.unitsLanded) {
      img.fill(w.fill, Math.max(w.offset, (first + u) * plan.atomicUnit), Math.min(w.offset + w.length, (first + u + 1) * plan.atomicUnit));
    }
  }
  return img;
}

t.before(async () => {
  await execa('cc', ['-O1', '-std=gnu11', '-Wall', '-Werror', '-Ifaults/helper', 'test/fixtures/journal-driver.c', 'faults/helper/journal.c', 'faults/helper/dumpfile.c', '-o', driver]);
});

t.test(`completed writes survive every plan; in-flight ones land by unit (${SEEDS.length} seeds)`, async (t) => {
  const failed: string[] = [];
  let pending = 0, overlapped = 0;
  for (const seed of SEEDS) {
    const rng = createRng(seed);
    const base = Buffer.alloc(SIZE);
    const { writes, commands } = program(rng);
    const image = join(dir, 'image.img');
    const journalPath = join(dir, 'journal.bin');
    writeFileSync(image, base);
    await execa(driver, [image, journalPath], { input: commands.join('\n') + '\n' });
    const journal = loadJournal(journalPath);
    t.same(journal.map((e) => e.seq), writes.filter((w) => !w.completed).map((w) => w.seq), `seed ${seed}: the journal holds the writes in flight, in arrival order`);
    pending += journal.length;
    const completed = writes.filter((w) => w.completed);
    overlapped += journal.filter((e) => completed.some((c) => c.seq > e.seq && c.offset < e.offset + e.length && e.offset < c.offset + c.length)).length;
    const atCut = readFileSync(image);
    for (const [i, policy] of [{ land: 0.35, drop: 0.3, tear: 0.35 }, { land: 0, drop: 1, tear: 0 }, { land: 1, drop: 0, tear: 0 }].entries()) {
      const plan = makePlan(journal, seed * 3 + i, ATOMIC_UNITS[rng.int(ATOMIC_UNITS.length)]!, policy);
      writeFileSync(image, atCut);
      await applyPlan(image, journal, plan);
      const got = readFileSync(image);
      const want = expected(base, writes, plan);
      if (!got.equals(want)) failed.push(`seed ${seed}, plan ${i}: byte ${got.findIndex((b, k) => b !== want[k])} differs (replay: PLAN_SEED=${seed})`);
    }
  }
  t.same(failed, [], `${pending} writes in flight at the cut`);
  t.ok(overlapped > 50, `${overlapped} of them under a newer write that completed first`);
});
