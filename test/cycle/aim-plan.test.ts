/**
 * The plan parts of rig/cycle/aim-plan.ts that need no disk: the cut's own plan (or one drawn from
 * seed 1 for a cut that has none), a plan tearing exactly the last write of each chosen page (at
 * a moment: every later write lost), and the moment that gives a page back its overwritten copy.
 * The probe itself scans a mounted crash image: test/cycle/crash-cycle.int.test.ts runs it.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { landAll } from '../../faults/chosen-plan.js';
import { makePlan } from '../../faults/crash-plan.js';
import { encodeJournal } from '../../faults/journal.js';
import { cutPlan, momentBefore, tearPages, type ProbedPage } from '../../rig/cycle/aim-plan.js';
import type { TornPage } from '../../rig/results/types.js';

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

t.test('tearPages at a moment: writes after it lost, the chosen one torn, the rest landed', async (t) => {
  const plan = tearPages(makePlan(entries, 2, 4096), [{ file: './db/t.ibd', page: 2, lastWrite: 10, moment: 11 }], 'one page torn');
  t.same(plan.writes.map((w) => [w.seq, w.fate, w.unitsLanded]), [[10, 'torn', [0]], [11, 'landed', [0, 1, 2, 3]], [12, 'dropped', []]]);
  t.equal(plan.chosen, 'one page torn, every write after seq 11 lost');
  t.throws(() => tearPages(makePlan(entries, 2, 4096), [{ file: 'a', page: 1, lastWrite: 10, moment: 11 }, { file: 'b', page: 1, lastWrite: 10 }], 'mixed'),
    /different moments/, 'pages probed at different moments do not mix');
});

t.test('momentBefore: the latest moment that keeps a torn page\'s overwritten copy', async (t) => {
  const probed = (lastWrite: number, overwritten: number[]): ProbedPage => ({
    file: './db/t.ibd', page: lastWrite, lastWrite, type: null,
    torn: { doublewrite: { overwritten: overwritten.map((seq) => ({ seq, fate: 'landed', afterHomeWrite: true })) } } as unknown as TornPage,
  });
  t.equal(momentBefore([probed(20, [])]), null, 'no copy overwritten: no moment');
  t.equal(momentBefore([probed(20, [15])]), null, 'a write before the home write does not count');
  t.equal(momentBefore([probed(20, [30, 25]), probed(40, [50])]), 49, 'the latest, each page just before its first overwrite after its home write');
  t.equal(momentBefore([{ ...probed(20, [30]), torn: null }]), null, 'a page that does not tear has no copy to keep');
});
