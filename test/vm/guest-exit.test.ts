import t from 'tap';
import { TIMEOUT_EXIT_CODE, guestEnd } from '../../rig/vm/guest-exit.js';

t.test("the command's status passes through", async (t) => {
  for (const code of [0, 1, 2, 7, 124, 255]) t.same(guestEnd(`${code}\n`, false, 'exit 0'), { kind: 'exited', code });
});

t.test('past the timeout without a status: timed out (exit 124, as timeout(1))', async (t) => {
  t.equal(TIMEOUT_EXIT_CODE, 124);
  t.same(guestEnd(null, true, 'SIGKILL'), { kind: 'timed-out' });
});

t.test('a status written just before the timer fired still counts', async (t) => {
  t.same(guestEnd('3\n', true, 'SIGKILL'), { kind: 'exited', code: 3 });
});

t.test('no status, or not a status: a rig failure naming how qemu ended', async (t) => {
  t.match(guestEnd(null, false, 'exit 0'), { kind: 'no-status', problem: /without reporting the command's exit status \(qemu exit 0\)/ });
  t.match(guestEnd('', false, 'exit 0'), { kind: 'no-status', problem: /not one: ""/ });
  t.match(guestEnd('256\n', false, 'exit 0'), { kind: 'no-status' });
  t.match(guestEnd('x1', false, 'exit 0'), { kind: 'no-status' });
});
