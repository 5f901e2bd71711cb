/**
 * The guest sweep (rig/cleanup/sweep-guests.ts) on a run folder whose rig process is gone: the
 * host removes it; a rig inside a guest, which sees the host's folders read-only and not the
 * host's processes, leaves it to the host.
 */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepGuests } from '../../rig/cleanup/sweep-guests.js';
import { vmPaths } from '../../rig/vm/paths.js';
import { RUN_DIR_FILES } from '../../rig/vm/run-guest.js';

const workDir = mkdtempSync(join(tmpdir(), 'rig-sweep-guests-'));
t.teardown(() => rmSync(workDir, { recursive: true, force: true }));

function leftRun(name: string): string {
  const dir = join(vmPaths(workDir).runsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, RUN_DIR_FILES.owner), '999999999:1\n'); // a pid no process has
  return dir;
}

t.test('inside a guest the host\'s runs are left alone', async (t) => {
  const dir = leftRun('run-guest');
  const out = await sweepGuests(workDir, { RIG_IN_GUEST: '1' });
  t.same(out, { removed: [], kept: [], problems: [] });
  t.ok(existsSync(dir));
});

t.test('on the host a run whose rig is gone is removed', async (t) => {
  const dir = leftRun('run-host');
  const out = await sweepGuests(workDir, {});
  t.ok(out.removed.includes(`removed guest run folder ${dir}`), out.removed.join('; '));
  t.notOk(existsSync(dir));
});
