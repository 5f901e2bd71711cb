import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QEMU, findOnPath } from '../../rig/vm/find-qemu.js';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';

t.before(ensureBuilt);
const dir = mkdtempSync(join(tmpdir(), 'rig-vm-preflight-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('no qemu on the PATH: one line with the fix, exit 2', async (t) => {
  const run = await rig(['vm', 'run', '--', 'true'], { PATH: '/nonexistent' });
  t.equal(run.exitCode, 2);
  t.equal(String(run.stderr), 'rig: qemu-system-x86_64 not found: run `make vm-setup` (installs Debian\'s qemu-system-x86)');
});

t.test('no guest kernel: one line with the fix, exit 2', async (t) => {
  // a qemu on the PATH (never run: the kernel check answers first), so the check is the kernel's wherever the test runs
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, QEMU), '#!/bin/sh\nexit 99\n', { mode: 0o755 });
  const run = await rig(['vm', 'run', '--', 'true'], { POWERCUT_RIG_WORK_DIR: join(dir, 'work'), PATH: `${bin}:${process.env.PATH ?? ''}` });
  t.equal(run.exitCode, 2);
  t.equal(String(run.stderr), `rig: no guest kernel in ${join(dir, 'work', 'vm', 'kernel')}: run \`make vm-setup\` (or \`rig vm setup\`)`);
});

t.test('bad flags: exit 2 naming the flag', async (t) => {
  for (const [args, message] of [
    [['--memory', '100M'], /^rig: --memory: 100M is too small/],
    [['--timeout', '0'], /^rig: --timeout: '0' is not a number of seconds/],
    [['--cpus', 'two'], /^rig: --cpus: 'two' is not a number of CPUs/],
    [['--dir', '/'], /^rig: --dir: the guest sees \/ read-only already/],
    [['--dir', '/nonexistent/folder'], /^rig: --dir: \/nonexistent\/folder is not a folder/],
  ] as const) {
    const run = await rig(['vm', 'run', ...args, '--', 'true']);
    t.equal(run.exitCode, 2, args.join(' '));
    t.match(String(run.stderr), message);
  }
});

t.test("a path the guest's tmpfs would hide: one line with the fix, exit 2, before anything else", async (t) => {
  // no qemu on the PATH: the refusal comes first
  const run = await rig(['vm', 'run', '--dir', dir, '--', 'node', '/tmp/rig-no-such-clone/main.js', '--out', join(dir, 'out')], { PATH: '/nonexistent' });
  t.equal(run.exitCode, 2);
  t.equal(String(run.stderr), 'rig: /tmp/rig-no-such-clone/main.js: not seen in the guest, which mounts its own empty tmpfs on /tmp; move it under --dir, or outside /tmp, /run and /var/tmp');
});

t.test('findOnPath: the first executable of that name', async (t) => {
  t.equal(findOnPath('sh', `/nonexistent:${dir}:/bin`), '/bin/sh');
  t.equal(findOnPath('sh', ''), null);
});
