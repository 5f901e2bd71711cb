import t from 'tap';
import { usageLine } from '../../rig/cli/usage-line.js';

t.test("commander's usage errors become one line that says where to look", async (t) => {
  t.equal(usageLine("error: missing required argument 'new'\n", 'compare'), "rig: missing required argument 'new'; see rig compare --help\n");
  t.equal(usageLine("error: unknown command 'nosuch'\n", undefined), "rig: unknown command 'nosuch'; see rig --help\n");
  t.equal(
    usageLine("error: option '--backend <backend>' argument 'zz' is invalid. Allowed choices are fuse, dm.\n", 'campaign'),
    "rig: option '--backend <backend>' argument 'zz' is invalid. Allowed choices are fuse, dm; see rig campaign --help\n",
  );
});
