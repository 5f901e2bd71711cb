/**
 * The failure a judged state shows (rig/findings/failure-signature.ts): none when it held or the
 * rig failed; a written-up finding by its id; otherwise the verdict and the first failure event
 * that names a page, and two states are the same failure exactly when all of that agrees.
 */
import t from 'tap';
import { describeFailure, failureClass, failureOf, sameFailure } from '../../rig/findings/failure-signature.js';
import type { CycleRecord, LogEvent } from '../../rig/results/types.js';
import { localScenario } from '../fixtures/local-scenario.js';
import { cycleRecord } from '../fixtures/cycle-record.js';

const settings = localScenario('s', { expect: 'recovers', server: { doublewrite: false } });
const corruption = (page: number): LogEvent => ({ line: 4, kind: 'corruption', text: `Unable to apply log to corrupted page ${page}`, space: 5, page, file: './sbtest/sbtest1.ibd' });
const record = (verdict: CycleRecord['verdict'], events: LogEvent[], held = false): CycleRecord =>
  cycleRecord({ id: 'c', scenario: 's', cycle: 1, seed: 1 }, settings, verdict, 1, { expectationHeld: held, errorLog: { excerpt: '', events } });

t.test('the class of each failing verdict, none for a pass', async (t) => {
  t.same(['detected', 'refused', 'wal-tail-refused', 'reported-corruption', 'silent-corruption', 'lost-commit', 'crashed', 'hung', 'shutdown-crash'].map((v) => failureClass(v as CycleRecord['verdict'])),
    ['refuses', 'refuses', 'refuses', 'corrupts', 'corrupts', 'loses-commits', 'crashed', 'hangs', 'shutdown-crash']);
  t.same(['restored', 'no-torn', 'rig-error'].map((v) => failureClass(v as CycleRecord['verdict'])), [null, null, null]);
});

t.test('no failure: held, or a rig error', async (t) => {
  t.equal(failureOf(record('restored', [], true)), null);
  t.equal(failureOf(record('rig-error', [corruption(3)])), null);
  t.notOk(sameFailure(null, null));
});

t.test('no finding: the verdict and the first failure event that names a page', async (t) => {
  const a = failureOf(record('detected', [{ line: 1, kind: 'recovery-start', text: 'x' }, corruption(7), corruption(9)]))!;
  t.same(a, { verdict: 'detected', finding: null, event: { kind: 'corruption', space: 5, page: 7, file: './sbtest/sbtest1.ibd' } });
  t.equal(describeFailure(a), 'detected, corruption of ./sbtest/sbtest1.ibd page 7');
  t.ok(sameFailure(a, failureOf(record('detected', [corruption(7)]))));
  t.notOk(sameFailure(a, failureOf(record('detected', [corruption(9)]))), 'another page');
  t.notOk(sameFailure(a, failureOf(record('reported-corruption', [corruption(7)]))), 'another class of verdict');
  t.ok(sameFailure(a, failureOf(record('refused', [corruption(7)]))), 'refused and detected: one class (torn pages tell them apart)');
  const bare = failureOf(record('lost-commit', []))!;
  t.equal(describeFailure(bare), 'lost-commit, no finding and no page named in the log');
});

t.test('a negative control held by a refusal: still the server failing, to shrink', async (t) => {
  const control = localScenario('c', { expect: 'torn-reproduced', server: { doublewrite: false } });
  const held = { ...cycleRecord({ id: 'c', scenario: 'c', cycle: 1, seed: 1 }, control, 'detected', 3, { expectationHeld: true, errorLog: { excerpt: '', events: [corruption(7)] } }) };
  t.same(failureOf(held), { verdict: 'detected', finding: null, event: { kind: 'corruption', space: 5, page: 7, file: './sbtest/sbtest1.ibd' } });
  t.equal(failureOf({ ...held, verdict: 'restored' }), null, 'a control whose server recovered shows no failure');
});
