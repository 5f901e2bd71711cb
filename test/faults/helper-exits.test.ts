import t from 'tap';
import { helperExit, noteHelper } from '../../faults/helper-exits.js';

t.test('a helper this process started: its exit is waited on, then forgotten', async (t) => {
  let exit!: () => void;
  noteHelper(101, new Promise<void>((resolve) => (exit = resolve)));
  const waiting = helperExit(101);
  t.ok(waiting, 'known while it runs');
  let settled = false;
  void waiting!.then(() => (settled = true));
  await new Promise((r) => setImmediate(r));
  t.notOk(settled, 'not settled before it exits');
  exit();
  await waiting;
  t.ok(settled, 'settled once it exits');
  await new Promise((r) => setImmediate(r));
  t.equal(helperExit(101), undefined, 'forgotten once gone: a teardown then finds the pid gone');
});

t.test('an exit that rejects (the runner lost it) still settles, and a pid noted again is the new one', async (t) => {
  noteHelper(102, Promise.reject(new Error('runner gone')));
  await t.resolves(helperExit(102)!, 'settles without throwing');
  let exit!: () => void;
  noteHelper(103, Promise.resolve());
  noteHelper(103, new Promise<void>((resolve) => (exit = resolve)));
  await new Promise((r) => setImmediate(r));
  t.ok(helperExit(103), 'the first exit does not forget the second helper of the same pid');
  exit();
  await helperExit(103);
  t.equal(helperExit(102), undefined, 'the exit that rejected is forgotten too');
});

t.test('a pid this process did not start is not known', async (t) => {
  t.equal(helperExit(999_999), undefined);
});
