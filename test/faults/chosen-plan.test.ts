/**
 * Chosen plans (faults/chosen-plan.ts): fates follow from the units landed, chosen units are kept
 * whole and in range, and a plan landing every write or tearing only the named ones rebuilds the
 * crash image its fates say (applyPlan on a temp file, against a byte model).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choosePlan, landAll, landAllBut } from '../../faults/chosen-plan.js';
import { makePlan } from '../../faults/crash-plan.js';
import type { JournalEntry } from '../../faults/journal.js';
import { applyPlan } from '../../faults/materialize.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-chosen-plan-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const UNIT = 4096;
// a 16 KiB page write at a 4 KiB offset (4 units), an 8 KiB write (2 units), a 4 KiB one (1 unit)
const writes = [
  { seq: 7, offset: 4096, length: 16384 },
  { seq: 8, offset: 32768, length: 8192 },
  { seq: 9, offset: 65536, length: 4096 },
];
const seeded = makePlan(writes, 3, UNIT);

t.test('landAll: every write landed whole, the seed and policy kept, how it was chosen said', async (t) => {
  const plan = landAll(seeded);
  t.same(plan.writes.map((w) => [w.fate, w.unitsLanded]), [['landed', [0, 1, 2, 3]], ['landed', [0, 1]], ['landed', [0]]]);
  t.equal(plan.seed, 3);
  t.same(plan.policy, seeded.policy);
  t.equal(plan.chosen, 'every write landed');
});

t.test('landAllBut: the named writes torn (first unit only) or dropped, the rest landed', async (t) => {
  const plan = landAllBut(seeded, new Map([[7, 'torn'], [8, 'dropped'], [9, 'torn']]), 'a test');
  t.same(plan.writes.map((w) => [w.seq, w.fate, w.unitsLanded]), [[7, 'torn', [0]], [8, 'dropped', []], [9, 'landed', [0]]], 'a one-unit write cannot tear: it lands');
  t.equal(plan.chosen, 'a test');
});

t.test('choosePlan keeps each unit once, in range, in order, and names the fate it gives', async (t) => {
  const plan = choosePlan(seeded, 'odd', (w) => [w.units - 1, 0, 0, 99, -1, 1.5]);
  t.same(plan.writes.map((w) => [w.fate, w.unitsLanded, w.units]), [['torn', [0, 3], 4], ['landed', [0, 1], 2], ['landed', [0], 1]]);
});

t.test('a chosen plan rebuilds the image its fates say', async (t) => {
  const size = 96 * 1024;
  const before = Buffer.alloc(size, 0xaa);
  const image = Buffer.from(before);
  const journal: JournalEntry[] = writes.map((w, i) => {
    const fresh = Buffer.alloc(w.length, i + 1);
    const old = Buffer.from(image.subarray(w.offset, w.offset + w.length));
    fresh.copy(image, w.offset);
    return { ...w, old, new: fresh };
  });
  const path = join(dir, 'image.img');
  writeFileSync(path, image);
  await applyPlan(path, journal, landAllBut(seeded, new Map([[7, 'torn'], [8, 'dropped']]), 'a test'));
  const crash = readFileSync(path);
  t.ok(crash.subarray(4096, 8192).equals(Buffer.alloc(4096, 1)), 'the torn write: its first unit new');
  t.ok(crash.subarray(8192, 20480).equals(before.subarray(8192, 20480)), 'the rest of it as before');
  t.ok(crash.subarray(32768, 40960).equals(before.subarray(32768, 40960)), 'the dropped write: as before');
  t.ok(crash.subarray(65536, 69632).equals(Buffer.alloc(4096, 3)), 'the landed write: new');
});
