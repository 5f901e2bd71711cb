/** The cycle's cleanup stack: every step runs, newest first; a disk left half torn down is a problem. */
import t from 'tap';
import { CleanupStack } from '../../rig/cycle/cleanup-stack.js';
import type { TeardownReport } from '../../faults/teardown.js';

const report = (problems: string[]): TeardownReport => ({ unmounted: [], detached: [], helperKilled: false, helperStopped: true, problems });

t.test('steps run newest first; a failing one is reported and stops none of the others', async (t) => {
  const stack = new CleanupStack();
  const ran: string[] = [];
  stack.push('a', async () => void ran.push('a'));
  stack.push('b', async () => { ran.push('b'); throw new Error('boom'); });
  stack.push('c', async () => void ran.push('c'));
  t.same(await stack.releaseAll(), ['b: boom']);
  t.same(ran, ['c', 'b', 'a']);
});

t.test('a disk whose teardown left something behind is a problem, a clean one is not', async (t) => {
  const stack = new CleanupStack();
  stack.pushDisk('load disk', { down: async () => report([]) });
  stack.pushDisk('recovery disk', { down: async () => report(['could not unmount /m', 'could not detach /dev/loop3: busy']) });
  t.same(await stack.releaseAll(), ['recovery disk: could not unmount /m; could not detach /dev/loop3: busy']);
});

t.test('runNamed runs one step once', async (t) => {
  const stack = new CleanupStack();
  let n = 0;
  stack.push('x', async () => void n++);
  await stack.runNamed('x');
  await stack.runNamed('x');
  t.equal(n, 1);
  t.same(await stack.releaseAll(), []);
  t.equal(n, 1, 'a step already run is not run again at release');
});
