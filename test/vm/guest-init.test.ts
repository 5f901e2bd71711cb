import t from 'tap';
import type { Test } from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { PORT_NAMES, RUN_FILES, SHARE_TAGS, guestInit } from '../../rig/vm/guest-init.js';
import { GUEST_TMPFS_DIRS } from '../../rig/vm/guest-paths.js';

const init = guestInit(['virtio_ring', 'dm_mod', 'dm_flakey']);

t.test('a shell script the shell accepts', async (t) => {
  t.ok(init.startsWith('#!/bin/sh\n'));
  const check = await execa('sh', ['-n'], { input: init, reject: false });
  t.equal(check.exitCode, 0, String(check.stderr));
});

t.test('loads the modules in the order given', async (t) => {
  t.match(init, /for m in virtio_ring dm_mod dm_flakey; do insmod \/lib\/modules\/\$m\.ko/);
});

t.test("the host's root read-only, the shares by their tags, the ports by their names", async (t) => {
  t.match(init, new RegExp(`cache=loose,ro ${SHARE_TAGS.root} \\$R `));
  t.match(init, new RegExp(`${SHARE_TAGS.run} \\$R\\$RUN`));
  t.match(init, new RegExp(`${SHARE_TAGS.dir} \\$R\\$DIR`));
  t.match(init, new RegExp(`${SHARE_TAGS.cache} \\$R\\$CACHE`));
  t.match(init, 'rig.cache=*) CACHE=');
  t.match(init, new RegExp(`cache=loose,ro ${SHARE_TAGS.pkg} \\$R\\$PKG`), 'the package root read-only');
  t.match(init, 'rig.pkg=*) PKG=');
  t.match(init, new RegExp(`cache=none ${SHARE_TAGS.cov} \\$R\\$COV`), 'the coverage folder read-write');
  t.match(init, 'rig.cov=*) COV=');
  t.match(init, `${PORT_NAMES.stdout}) OUT=`);
  t.match(init, `${PORT_NAMES.stderr}) ERR=`);
});

t.test('runs the command script chrooted, writes its status, then powers off', async (t) => {
  const run = init.indexOf(`chroot $R /bin/sh $RUN/${RUN_FILES.command} </dev/null >$OUT 2>$ERR`);
  const status = init.indexOf(`echo $? > $R$RUN/${RUN_FILES.status}`);
  t.ok(run > 0 && status > run, 'status right after the command');
  t.match(init, /sync\npoweroff -f\n$/);
});

const dir = mkdtempSync(join(tmpdir(), 'rig-vm-init-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The mounts /init makes after the host's root, for a kernel command line: /init run by the host's
 * sh with the commands that would change the machine replaced by ones that print their arguments.
 * Each as "source target" (and ",ro" when read-only).
 */
async function mountsFor(t: Test, cmdline: string): Promise<string[]> {
  const file = join(dir, 'init');
  writeFileSync(file, init);
  const stubs = [
    'mount() { echo "mount $*"; }',
    'cat() { [ "$1" = /proc/cmdline ] && echo "$CMDLINE"; return 0; }',
    ...['insmod', 'mkdir', 'cut', 'chroot', 'sync', 'poweroff'].map((c) => `${c}() { :; }`),
  ].join('\n');
  const run = await execa('sh', ['-c', `${stubs}\n. "$1"`, 'sh', file], { env: { CMDLINE: cmdline }, reject: false });
  t.equal(run.exitCode, 0, String(run.stderr));
  const mounts = String(run.stdout).split('\n').filter((l) => l.startsWith('mount ')).map((l) => l.split(' '));
  const afterRoot = mounts.slice(mounts.findIndex((m) => m.includes(SHARE_TAGS.root)) + 1);
  return afterRoot
    .filter((m) => !/^\/newroot\/(proc|sys|dev)(\/|$)/.test(m.at(-1)!))
    .map((m) => `${m.at(-2)} ${m.at(-1)}${m.some((w) => /(^|,)ro(,|$)/.test(w)) ? ' ro' : ''}`);
}

t.test("the shares mount over the guest's tmpfs, each at its own path, the read-only package root first", async (t) => {
  const tmpfs = GUEST_TMPFS_DIRS.map((d) => `tmp /newroot${d}`);
  const base = 'console=ttyS0 panic=-1 quiet rig.run=/v/runs/run-1 rig.dir=/tmp/shared rig.cache=/var/tmp/cache';
  for (const [cmdline, mounts] of [
    [base, [...tmpfs, 'rig.run /newroot/v/runs/run-1', 'rig.dir /newroot/tmp/shared', 'rig.cache /newroot/var/tmp/cache']],
    [`${base} rig.pkg=/tmp/clone`, [...tmpfs, 'rig.pkg /newroot/tmp/clone ro', 'rig.run /newroot/v/runs/run-1', 'rig.dir /newroot/tmp/shared', 'rig.cache /newroot/var/tmp/cache']],
    [`${base} rig.pkg=/tmp/clone rig.cov=/tmp/clone/.tap`, [...tmpfs, 'rig.pkg /newroot/tmp/clone ro', 'rig.run /newroot/v/runs/run-1', 'rig.dir /newroot/tmp/shared', 'rig.cache /newroot/var/tmp/cache', 'rig.cov /newroot/tmp/clone/.tap']],
    ['console=ttyS0 rig.run=/v/runs/run-1', [...tmpfs, 'rig.run /newroot/v/runs/run-1']],
  ] as const) {
    t.same(await mountsFor(t, cmdline), mounts, cmdline);
  }
});
