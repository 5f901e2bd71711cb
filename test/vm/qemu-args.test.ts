import t from 'tap';
import { qemuArgs, type GuestMachine } from '../../rig/vm/qemu-args.js';

const machine: GuestMachine = {
  kernel: '/v/guests/k/vmlinux', initrd: '/v/guests/k/initrd.gz', memoryMb: 1024, cpus: 2,
  runDir: '/v/runs/run-1', sharedDir: '/work/checkout', cacheDir: '/var/cache/rig', consoleLog: '/v/runs/run-1/console.log',
  stdoutSocket: '/v/runs/run-1/stdout.sock', stderrSocket: '/v/runs/run-1/stderr.sock', pidFile: '/v/runs/run-1/qemu.pid',
};
const args = qemuArgs(machine);
const valueOf = (flag: string) => args[args.indexOf(flag) + 1];
const allOf = (flag: string) => args.flatMap((a, i) => (args[i - 1] === flag ? [a] : []));

t.test('TCG, memory, CPUs, the kernel and initramfs, no reboot', async (t) => {
  t.equal(valueOf('-accel'), 'tcg,thread=multi');
  t.equal(valueOf('-m'), '1024');
  t.equal(valueOf('-smp'), '2');
  t.equal(valueOf('-kernel'), machine.kernel);
  t.equal(valueOf('-initrd'), machine.initrd);
  t.ok(args.includes('-no-reboot') && args.includes('-nodefaults'));
  t.equal(valueOf('-pidfile'), machine.pidFile);
});

t.test('the kernel command line names the run folder, the shared folder and the cache', async (t) => {
  t.equal(valueOf('-append'), 'console=ttyS0 panic=-1 quiet rig.run=/v/runs/run-1 rig.dir=/work/checkout rig.cache=/var/cache/rig');
  t.equal(valueOf('-serial'), 'file:/v/runs/run-1/console.log');
});

t.test("the host's root read-only; the shared and run folders and the cache read-write", async (t) => {
  const shares = allOf('-virtfs');
  t.equal(shares.length, 4);
  t.match(shares[0], /^local,path=\/,mount_tag=rig\.root,.*,readonly=on$/);
  t.match(shares[1], /^local,path=\/work\/checkout,mount_tag=rig\.dir,/);
  t.notMatch(shares[1], /readonly/);
  t.match(shares[2], /^local,path=\/v\/runs\/run-1,mount_tag=rig\.run,/);
  t.match(shares[3], /^local,path=\/var\/cache\/rig,mount_tag=rig\.cache,/);
  t.notMatch(shares[3], /readonly/);
});

t.test('the package root read-only and the coverage folder read-write, each named on the kernel command line when given', async (t) => {
  for (const [extra, shares, append] of [
    [{}, [], ''],
    [{ packageDir: '/tmp/clone' }, ['path=/tmp/clone,mount_tag=rig.pkg,ro'], ' rig.pkg=/tmp/clone'],
    [{ coverageDir: '/work/main/.tap' }, ['path=/work/main/.tap,mount_tag=rig.cov,rw'], ' rig.cov=/work/main/.tap'],
    [{ packageDir: '/tmp/clone', coverageDir: '/tmp/clone/.tap' }, ['path=/tmp/clone,mount_tag=rig.pkg,ro', 'path=/tmp/clone/.tap,mount_tag=rig.cov,rw'], ' rig.pkg=/tmp/clone rig.cov=/tmp/clone/.tap'],
  ] as const) {
    const a = qemuArgs({ ...machine, ...extra });
    const virtfs = a.flatMap((x, i) => (a[i - 1] === '-virtfs' ? [x] : []));
    const brief = (s: string) => `${s.match(/path=[^,]*,mount_tag=[^,]*/)![0]},${s.endsWith('readonly=on') ? 'ro' : 'rw'}`;
    t.same(virtfs.slice(4).map(brief), shares, `${JSON.stringify(extra)}: shares`);
    t.equal(a[a.indexOf('-append') + 1], `console=ttyS0 panic=-1 quiet rig.run=/v/runs/run-1 rig.dir=/work/checkout rig.cache=/var/cache/rig${append}`, `${JSON.stringify(extra)}: kernel command line`);
  }
});

t.test("the command's stdout and stderr on named ports, from the host's sockets", async (t) => {
  t.same(allOf('-chardev'), ['socket,id=out,path=/v/runs/run-1/stdout.sock', 'socket,id=err,path=/v/runs/run-1/stderr.sock']);
  t.same(allOf('-device'), ['virtio-serial-pci', 'virtserialport,chardev=out,name=rig.stdout', 'virtserialport,chardev=err,name=rig.stderr']);
});

t.test('a folder with a comma or white space is refused (qemu options, kernel command line)', async (t) => {
  t.throws(() => qemuArgs({ ...machine, sharedDir: '/work/a,b' }), /cannot hold a comma or white space: \/work\/a,b/);
  t.throws(() => qemuArgs({ ...machine, runDir: '/tmp/a b' }), /white space/);
  t.throws(() => qemuArgs({ ...machine, cacheDir: '/var/c,d' }), /comma or white space: \/var\/c,d/);
  t.throws(() => qemuArgs({ ...machine, packageDir: '/tmp/my clone' }), /comma or white space: \/tmp\/my clone/);
  t.throws(() => qemuArgs({ ...machine, packageDir: '/tmp/a,b' }), /comma or white space: \/tmp\/a,b/);
  t.throws(() => qemuArgs({ ...machine, coverageDir: '/w/a b/.tap' }), /comma or white space: \/w\/a b\/.tap/);
});
