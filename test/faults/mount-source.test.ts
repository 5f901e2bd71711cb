/** mountSource reads what the kernel says is mounted at a path: /proc/self/mountinfo, as it is. */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { mountSource } from '../../faults/system.js';

t.test("the root's source is mountinfo's, and a folder that is no mount point has none", async (t) => {
  const root = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')).find((f) => f[4] === '/');
  t.ok(root, 'mountinfo names /');
  t.equal(mountSource('/'), root!.slice(root!.indexOf('-') + 1)[1]);
  t.equal(mountSource('/nonexistent/not-a-mount'), null);
});
