import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDatadirUnused } from '../../rig/runtime/preflight.js';

// A process whose command line names the datadir stands in for a server (the check reads /proc only).
t.test('a process naming the datadir in its --datadir= makes the datadir in use', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'preflight-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const datadir = join(root, 'data');
  await t.resolves(checkDatadirUnused(datadir), 'free before');
  // Node itself holds it: a shell would fork its command, and the forked child carries the
  // shell's command line until it execs, which a loaded machine can leave after the shell is gone.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '--', `--datadir=${datadir}/`], {
    stdio: 'ignore',
  });
  t.teardown(() => holder.kill('SIGKILL'));
  await new Promise((resolve) => holder.once('spawn', resolve));
  const error = await checkDatadirUnused(datadir).catch((e: unknown) => e);
  t.match(String(error), `process ${holder.pid} already runs a server on datadir ${datadir}`);
  await t.resolves(checkDatadirUnused(join(root, 'other')), 'another datadir is free');
  holder.kill('SIGKILL');
  await new Promise((resolve) => holder.once('exit', resolve));
  await t.resolves(checkDatadirUnused(datadir), 'free once the process is gone');
});
