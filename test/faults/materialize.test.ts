/**
 * applyPlan (faults/materialize.ts) on an ordinary temp file, against a byte-array model of the
 * device: seeded programs of overlapping writes, the image as it stood at the cut, and the crash
 * image each plan must give. A failure names its seed; `PLAN_SEED=N` replays that one seed.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { makePlan, unitSpan, type CrashPlan } from '../../faults/crash-plan.js';
import type { JournalEntry } from '../../faults/journal.js';
import { applyPlan, materializeCrashImage, planWrites, sha256File, writeCrashImage } from '../../faults/materialize.js';
import { sha256WithOverlay } from '../../faults/overlay-sha256.js';
import { createRng, type Rng } from '../../faults/prng.js';
import { ATOMIC_UNITS } from '../../faults/sizes.js';

const SIZE = 256 * 1024;
const SEEDS = process.env.PLAN_SEED ? [Number(process.env.PLAN_SEED)] : Array.from({ length: 150 }, (_, i) => i + 1);

const dir = mkdtempSync(join(tmpdir(), 'rig-materialize-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

function bytes(rng: Rng, n: number): Buffer {
  const b = Buffer.alloc(n); // n is a multiple of 512
  for (let i = 0; i < n; i += 4) b.writeUInt32LE(rng.int(2 ** 32), i);
  return b;
}

/** Random writes, many overlapping, applied in order to `base`: the journal and the image at the cut. */
function program(rng: Rng, base: Buffer): { journal: JournalEntry[]; atCut: Buffer } {
  const image = Buffer.from(base);
  const journal = Array.from({ length: 4 + rng.int(30) }, (_, i): JournalEntry => {
    const length = 512 * (1 + rng.int(64));
    const offset = 512 * rng.int((SIZE - length) / 512 + 1);
    const old = Buffer.from(image.subarray(offset, offset + length));
    const fresh = bytes(rng, length);
    fresh.copy(image, offset);
    return { seq: 100 + i, offset, length, old, new: fresh };
  });
  return { journal, atCut: image };
}

/** The model: the device before the pending writes, then each write's landed units, in order. */
function expected(base: Buffer, journal: JournalEntry[], plan: CrashPlan): Buffer {
  const img = Buffer.from(base);
  journal.forEach((e, i) => {
    const { first } = unitSpan(e.offset, e.length, plan.atomicUnit);
    for (const u of plan.writes[i]!.unitsLanded) {
      const from = Math.max(e.offset, (first + u) * plan.atomicUnit);
      const to = Math.min(e.offset + e.length, (first + u + 1) * plan.atomicUnit);
      e.new.copy(img, from, from - e.offset, to - e.offset);
    }
  });
  return img;
}

async function crashImage(atCut: Buffer, journal: JournalEntry[], plan: CrashPlan): Promise<Buffer> {
  const path = join(dir, 'image.img');
  writeFileSync(path, atCut);
  await applyPlan(path, journal, plan);
  return readFileSync(path);
}

t.test(`crash images match the model (${SEEDS.length} seeds)`, async (t) => {
  const failed: string[] = [];
  let writes = 0, torn = 0;
  for (const seed of SEEDS) {
    const rng = createRng(seed);
    const base = bytes(rng, SIZE);
    const { journal, atCut } = program(rng, base);
    const plan = makePlan(journal, seed, ATOMIC_UNITS[rng.int(ATOMIC_UNITS.length)]!);
    writes += journal.length;
    torn += plan.writes.filter((w) => w.fate === 'torn').length;
    const got = await crashImage(atCut, journal, plan);
    const want = expected(base, journal, plan);
    if (!got.equals(want)) {
      const at = got.findIndex((b, i) => b !== want[i]);
      failed.push(`seed ${seed}: byte ${at} differs (unit ${plan.atomicUnit}; replay: PLAN_SEED=${seed})`);
    }
  }
  t.same(failed, [], `${writes} pending writes, ${torn} torn`);
});

t.test('every write dropped gives the device before them; every write landed, the device at the cut', async (t) => {
  const rng = createRng(7);
  const base = bytes(rng, SIZE);
  const { journal, atCut } = program(rng, base);
  const all = (policy: { land: number; drop: number; tear: number }) => makePlan(journal, 1, 4096, policy);
  t.ok((await crashImage(atCut, journal, all({ land: 0, drop: 1, tear: 0 }))).equals(base), `${journal.length} writes rolled back, newest first`);
  t.ok((await crashImage(atCut, journal, all({ land: 1, drop: 0, tear: 0 }))).equals(atCut), 'all landed, in order');
});

t.test('later writes win where both land', async (t) => {
  const base = Buffer.alloc(SIZE);
  const first: JournalEntry = { seq: 1, offset: 0, length: 8192, old: Buffer.alloc(8192), new: Buffer.alloc(8192, 1) };
  const second: JournalEntry = { seq: 2, offset: 4096, length: 8192, old: Buffer.alloc(8192, 1).fill(0, 4096), new: Buffer.alloc(8192, 2) };
  const atCut = Buffer.from(base);
  first.new.copy(atCut, 0);
  second.new.copy(atCut, 4096);
  const journal = [first, second];
  const plan = makePlan(journal, 1, 4096, { land: 1, drop: 0, tear: 0 });
  const got = await crashImage(atCut, journal, plan);
  t.same([got[0], got[4096], got[8192], got[12288]], [1, 2, 2, 0], 'the unit both wrote holds the second');
  plan.writes[1] = { ...plan.writes[1]!, fate: 'torn', unitsLanded: [1] }; // only its unit past the first write
  const torn = await crashImage(atCut, journal, plan);
  t.same([torn[0], torn[4096], torn[8192]], [1, 1, 2], 'where the second did not land, the first shows');
});

t.test('a plan that does not describe the journal is refused, and the image is untouched', async (t) => {
  const rng = createRng(11);
  const { journal, atCut } = program(rng, bytes(rng, SIZE));
  const plan = makePlan(journal, 1, 4096);
  const path = join(dir, 'refused.img');
  const cases: [string, JournalEntry[], CrashPlan][] = [
    ['one write fewer in the plan', journal, { ...plan, writes: plan.writes.slice(1) }],
    ['one write more in the journal', [...journal, journal[0]!], plan],
    ['another offset', journal.map((e, i) => (i === 0 ? { ...e, offset: e.offset + 512 } : e)), plan],
    ['another length', journal.map((e, i) => (i === 0 ? { ...e, length: e.length + 512 } : e)), plan],
    ['another sequence number', journal.map((e, i) => (i === 0 ? { ...e, seq: 9 } : e)), plan],
  ];
  for (const [name, j, p] of cases) {
    writeFileSync(path, atCut);
    await t.rejects(applyPlan(path, j, p), { code: 'rig-failure', message: /the plan does not describe this journal/ }, name);
    t.ok(readFileSync(path).equals(atCut), `${name}: image untouched`);
  }
});

t.test('materializeCrashImage: same inputs, same sha256', async (t) => {
  const rng = createRng(3);
  const { journal, atCut } = program(rng, bytes(rng, SIZE));
  const atCutPath = join(dir, 'at-cut.img');
  writeFileSync(atCutPath, atCut);
  const plan = makePlan(journal, 3, 4096);
  const a = await materializeCrashImage(atCutPath, journal, plan, join(dir, 'a.img'));
  const b = await materializeCrashImage(atCutPath, journal, plan, join(dir, 'b.img'));
  t.equal(a, b);
  t.equal(await sha256File(join(dir, 'a.img')), a);
  t.ok(readFileSync(atCutPath).equals(atCut), 'the image at the cut is left as it was');
});

const sha256Of = (b: Buffer) => createHash('sha256').update(b).digest('hex');

t.test(`the sha256 taken from the image at the cut is the written crash image's (${SEEDS.length >= 40 ? 40 : SEEDS.length} seeds)`, async (t) => {
  const failed: string[] = [];
  for (const seed of SEEDS.slice(0, 40)) {
    const rng = createRng(seed);
    const base = bytes(rng, SIZE);
    const { journal, atCut } = program(rng, base);
    const plan = makePlan(journal, seed, ATOMIC_UNITS[rng.int(ATOMIC_UNITS.length)]!);
    const atCutPath = join(dir, 'overlay-at-cut.img');
    writeFileSync(atCutPath, atCut);
    const out = join(dir, 'overlay-crash.img');
    const { sha256 } = await writeCrashImage(atCutPath, journal, plan, out);
    const want = sha256Of(expected(base, journal, plan));
    const got = [await sha256, await sha256File(out)];
    if (got.some((h) => h !== want)) failed.push(`seed ${seed}: overlay ${got[0]}, written ${got[1]}, model ${want} (replay: PLAN_SEED=${seed})`);
  }
  t.same(failed, []);
});

t.test('sha256WithOverlay: a sparse file, pieces across its 8 MiB chunks and past its end', async (t) => {
  const path = join(dir, 'sparse.img');
  const MiB = 1024 * 1024;
  writeFileSync(path, '');
  truncateSync(path, 20 * MiB + 1000); // holes, and a last chunk that is not whole
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(4096, 9), 0, 4096, 8 * MiB - 100); // data on the disk across a boundary
  closeSync(fd);
  const pieces = [
    { offset: 8 * MiB - 10, data: Buffer.alloc(30, 1) },
    { offset: 16 * MiB - 5, data: Buffer.alloc(10, 2) },
    { offset: 8 * MiB - 5, data: Buffer.alloc(3, 3) }, // a later piece over an earlier one wins
    { offset: 20 * MiB + 990, data: Buffer.alloc(20, 4) }, // past the end: the file grows
    { offset: 5, data: Buffer.alloc(0) },
  ];
  const model = Buffer.alloc(20 * MiB + 1010);
  Buffer.alloc(4096, 9).copy(model, 8 * MiB - 100);
  for (const p of pieces) p.data.copy(model, p.offset);
  t.equal(await sha256WithOverlay(path, pieces), sha256Of(model));
  t.equal(readFileSync(path).length, 20 * MiB + 1000, 'the file itself is only read');
  await t.rejects(sha256WithOverlay(join(dir, 'missing.img'), []), /ENOENT/, 'a file that is not there: the promise rejects');
});

t.test('planWrites: the old bytes newest first, then the landed units in order', async (t) => {
  const first: JournalEntry = { seq: 1, offset: 0, length: 8192, old: Buffer.alloc(8192), new: Buffer.alloc(8192, 1) };
  const second: JournalEntry = { seq: 2, offset: 4096, length: 8192, old: Buffer.alloc(8192, 1).fill(0, 4096), new: Buffer.alloc(8192, 2) };
  const plan = makePlan([first, second], 1, 4096, { land: 1, drop: 0, tear: 0 });
  plan.writes[1] = { ...plan.writes[1]!, fate: 'torn', unitsLanded: [1] };
  t.same(planWrites([first, second], plan).map((w) => [w.offset, w.data.byteLength, w.data[0]]), [
    [4096, 8192, 1], [0, 8192, 0], // rolled back, newest first
    [0, 4096, 1], [4096, 4096, 1], // the first write's two units
    [8192, 4096, 2], // the second's unit 1 only
  ]);
});

t.test('a crash image is under its name only once it is whole', async (t) => {
  // the image at the cut is a FIFO, so the copy waits, mid-build, until the test lets it finish
  const rng = createRng(11);
  const base = bytes(rng, SIZE);
  const { journal, atCut } = program(rng, base);
  const plan = makePlan(journal, 11, 4096);
  const fifo = join(dir, 'fifo-at-cut.img');
  execFileSync('mkfifo', [fifo]);
  const fifoPath = realpathSync(fifo);
  const out = join(dir, 'fifo-crash.img');
  const built = writeCrashImage(fifo, journal, plan, out);
  const writer = await open(fifo, 'w'); // once the copy reads it
  // the copy has made its file, and the digest's worker (this process's thread) has opened the
  // FIFO too, so it is not left waiting for a writer once this one closes
  const workerOpen = () => readdirSync('/proc/self/fd').filter((fd) => {
    try { return readlinkSync(`/proc/self/fd/${fd}`) === fifoPath; } catch { return false; }
  }).length >= 2;
  const started = Date.now();
  while (!((existsSync(`${out}.partial`) || existsSync(out)) && workerOpen()) && Date.now() - started < 30_000) await setTimeout(20);
  t.ok(existsSync(`${out}.partial`), 'the copy has begun, beside the crash image\'s name');
  t.notOk(existsSync(out), 'nothing is under the crash image\'s name while it is built');
  await writer.write(atCut);
  await writer.close();
  const { sha256 } = await built;
  await sha256.catch(() => undefined); // a FIFO cannot be read twice; the sha256 is tested above
  t.ok(readFileSync(out).equals(expected(base, journal, plan)), 'the whole crash image, under its name');
  t.notOk(existsSync(`${out}.partial`), 'nothing left beside it');
});
