/**
 * The plan parts of rig/cycle/aim-plan.ts that need no disk: the cut's own plan (or one drawn from
 * seed 1 for a cut that has none), and a plan tearing exactly the last write of each chosen page.
 * The probe itself scans a mounted crash image: test/cycle/crash-cycle.int.test.ts runs it.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { landAll } from '../../faults/chosen-plan.js';
import { makePlan } from '../../faults/crash-plan.js';
import { encodeJournal } from '../../faults/journal.js';
import { cutPlan, tearPages } from '../../rig/cycle/aim-plan.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-aim-plan-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const entries = [10, 11, 12].map((seq, i) => ({ seq, offset: 16384 * (i + 1), length: 16384, old: Buffer.alloc(16384), new: Buffer.alloc(16384, seq) }));
mkdirSync(join(dir, 'cut'));
writeFileSync(join(dir, 'cut', 'journal.bin'), encodeJournal(entries));

t.test('a cut without plan.json: a plan drawn from seed 1 over its journal', async (t) => {
  t.same(cutPlan(dir, 4096), makePlan(entries, 1, 4096));
});

t.test("a cut with plan.json: the cut's own plan", async (t) => {
  const own = landAll(makePlan(entries, 9, 4096));
  writeFileSync(join(dir, 'cut', 'plan.json'), JSON.stringify(own));
  t.same(cutPlan(dir, 4096), own);
});

t.test("tearPages: each chosen page's last write keeps its first unit, every other write lands", async (t) => {
  const plan = tearPages(makePlan(entries, 2, 4096), [{ file: './db/t.ibd', page: 3, lastWrite: 11 }], 'one page torn');
  t.same(plan.writes.map((w) => [w.seq, w.fate, w.unitsLanded]), [[10, 'landed', [0, 1, 2, 3]], [11, 'torn', [0]], [12, 'landed', [0, 1, 2, 3]]]);
  t.equal(plan.chosen, 'one page torn');
});
