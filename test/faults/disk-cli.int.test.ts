/**
 * `rig disk` and `rig cleanup` as users run them (the built CLI), on the real stack: bad input
 * answered in one line with exit 2 and nothing left behind; SIGINT/SIGTERM during bring-up and
 * while a process holds a disk leave no mount, loop device or helper; after SIGKILL `rig cleanup`
 * removes the remains; and the up/status/cut/down path with a reproducible crash image.
 *
 * Every run here uses its own registry of live disks (RIG_REGISTRY_DIR), so `rig cleanup` sees only
 * this file's disks, never another run's on the same machine. Running out of loop devices is
 * test/faults/no-free-loop.int.test.ts, which runs alone.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { rebuildCrashImage } from '../../faults/crash-image.js';
import type { CrashPlan } from '../../faults/crash-plan.js';
import { readRecord, saveRecord } from '../../faults/disk-record.js';
import { waitFor } from '../../faults/system.js';
import { tearDownDisk } from '../../faults/teardown.js';
import { ensureBuilt, leftoversUnder, plainEnv, rig, waitForHelper } from '../fixtures/rig-cli.js';

const root = mkdtempSync(join(tmpdir(), 'rig-disk-cli-'));
const registry = join(root, 'registry');
const env = { RIG_REGISTRY_DIR: registry };
let serial = 0;

/** A fresh work folder whose disk, whatever the test did, is taken down in teardown. */
function workDir(tt: { teardown(fn: () => unknown): void }): string {
  const dir = join(root, `d${++serial}`);
  tt.teardown(async () => {
    const record = readRecord(dir);
    if (record) await tearDownDisk(record, { lazy: true });
  });
  return dir;
}

function registered(): string[] {
  return existsSync(registry) ? readdirSync(registry) : [];
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

t.before(ensureBuilt);
t.teardown(() => rmSync(root, { recursive: true, force: true }));

t.test('bad input: one line on stderr, exit 2, nothing left behind', async (t) => {
  // a folder of links to every tool the disk needs except mkfs.xfs
  const bin = join(root, 'bin-without-xfs');
  mkdirSync(bin);
  for (const tool of ['sh', 'losetup', 'fusermount3', 'mount', 'umount', 'cp', 'mkfs.ext4']) {
    const { stdout } = await execa('sh', ['-c', `command -v ${tool}`]);
    symlinkSync(stdout.trim(), join(bin, tool));
  }
  const badProfile = join(root, 'bad-profile.yml');
  writeFileSync(badProfile, 'cache: durable\nlatency: 1ms\n');
  const cases: { name: string; args: string[]; env?: Record<string, string>; says: RegExp }[] = [
    { name: 'unknown atomic size', args: ['--atomic', '12k'], says: /^rig: --atomic: 12k is not a power of two; use 512, 4k, 8k, 16k, 32k or 64k$/ },
    { name: 'size too small for the filesystem', args: ['--fs', 'xfs', '--size', '64M'], says: /^rig: --size: 64M is too small for xfs; use 300M or more$/ },
    // stands in for a host without FUSE: preflight looks for the device node named here
    { name: 'no /dev/fuse', args: [], env: { RIG_DEV_FUSE: '/nonexistent' }, says: /\/nonexistent does not exist/ },
    { name: 'unknown profile', args: ['--profile', 'ssd'], says: /^rig: --profile: 'ssd' is not a shipped profile; use essd, local, nvme or pmem, or a file path \(copy one from faults\/profiles\/\)$/ },
    { name: 'profile file with an unknown key', args: ['--profile', badProfile], says: /^rig: --profile: \S+bad-profile\.yml: unknown key; the keys are cache, writeLatency, flushLatency, iops, bandwidth, queueDepth; see faults\/profiles\/local\.yml for the format$/ },
    { name: 'missing mkfs tool', args: ['--fs', 'xfs', '--size', '320M'], env: { PATH: bin }, says: /mkfs\.xfs is not installed.*apt-get install xfsprogs/ },
  ];
  for (const c of cases) {
    t.test(c.name, async (t) => {
      const dir = workDir(t);
      const r = await rig(['disk', 'up', '--dir', dir, '--size', '128M', ...c.args], { ...env, ...c.env });
      t.equal(r.exitCode, 2, 'exit 2');
      const lines = String(r.stderr).trim().split('\n');
      t.equal(lines.length, 1, `one line: ${r.stderr}`);
      t.match(lines[0], c.says);
      t.equal(r.stdout, '', 'nothing on stdout');
      t.same(leftoversUnder(dir), [], 'no mount, loop device or helper');
      t.same(registered(), [], 'no disk registered');
    });
  }
});

t.test('bad input: a --dir already in use', async (t) => {
  const dir = workDir(t);
  const first = await rig(['disk', 'up', '--dir', dir, '--size', '128M', '--trigger', 'manual'], env);
  t.equal(first.exitCode, 0, `first up: ${first.stderr}`);
  const before = leftoversUnder(dir);
  t.equal(before.length, 4, 'the first disk is up: 2 mounts, a loop device, a helper');
  const second = await rig(['disk', 'up', '--dir', dir, '--size', '128M'], env);
  t.equal(second.exitCode, 2);
  t.match(String(second.stderr).trim(), /^rig: --dir: \S+ is already in use by a power-fail disk; take that disk down first, or use another folder$/);
  t.equal(String(second.stderr).trim().split('\n').length, 1, 'one line');
  t.same(leftoversUnder(dir), before, 'the first disk untouched, nothing added');
  const down = await rig(['disk', 'down', '--dir', dir], env);
  t.equal(down.exitCode, 0, `down: ${down.stderr}`);
  t.same(leftoversUnder(dir), [], 'down leaves nothing');
});

t.test('rig disk up --profile nvme: a durable cache, where completed writes are never pending', async (t) => {
  const dir = workDir(t);
  const up = await rig(['disk', 'up', '--dir', dir, '--size', '16M', '--fs', 'none', '--trigger', 'manual', '--profile', 'nvme'], env);
  t.equal(up.exitCode, 0, `up: ${up.stderr}`);
  t.match(up.stderr, /profile nvme \(durable cache\)/);
  const dev = String(up.stdout).trim();
  await execa('dd', ['if=/dev/urandom', `of=${dev}`, 'bs=16k', 'count=8', 'oflag=direct']);
  const status = await rig(['disk', 'status', '--dir', dir], env);
  t.match(status.stdout, /^cache\s+durable: 8 writes durable as they completed; 0 requests in service, 0 queued$/m);
  t.match(status.stdout, /^journal\s+0 writes pending/m);
  const cut = await rig(['disk', 'cut', '--dir', dir], env);
  t.equal(cut.stdout, 'cut: 0 writes pending (0 of page size or more)', 'the 8 completed writes survive any plan');
  // its record copied into another folder names this disk's devices and helper, not that folder's
  const copy = join(root, 'copied-record');
  mkdirSync(copy);
  writeFileSync(join(copy, 'disk.json'), readFileSync(join(dir, 'disk.json')));
  const up1 = leftoversUnder(dir);
  const copied = await rig(['disk', 'down', '--dir', copy], env);
  t.equal(copied.exitCode, 2, 'the copy is refused');
  t.match(copied.stderr.trim(), /^rig: --dir: \S+\/disk\.json is the record of the disk in \S+; name that folder$/);
  t.same(leftoversUnder(dir), up1, 'the disk the record names is left up');
  const down = await rig(['disk', 'down', '--dir', dir], env);
  t.equal(down.exitCode, 0, `down: ${down.stderr}`);
  t.same(leftoversUnder(dir), [], 'down leaves nothing');
});

/** Waits for a child to end; returns the signal that ended it, or its exit code. */
async function ended(child: ResultPromise): Promise<string | number | undefined> {
  const r = await child;
  return r.signal ?? r.exitCode;
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  t.test(`${sig} during rig disk up leaves nothing`, async (t) => {
    const dir = workDir(t);
    if (sig === 'SIGTERM') mkdirSync(dir); // a folder that was there, empty; for SIGINT a new one
    const child = rig(['disk', 'up', '--dir', dir, '--size', '128M', '--fs', 'ext4'], env, { timeout: 60_000 });
    await waitForHelper(dir);
    child.kill(sig);
    t.equal(await ended(child), sig, 'the process ends by the signal it got');
    t.equal((await child).stdout, '', 'it never said the disk was up');
    t.same(leftoversUnder(dir), [], 'no mount, loop device or helper');
    t.same(registered(), [], 'no disk registered');
    if (sig === 'SIGTERM') t.same(readdirSync(dir), [], 'the folder it was given is empty again');
    else t.notOk(existsSync(dir), 'nor the folder it made');
  });
}

t.test("SIGINT during rig disk up in an earlier disk's folder removes what it wrote, and only that", async (t) => {
  const dir = workDir(t);
  const args = ['disk', 'up', '--dir', dir, '--size', '128M', '--fs', 'ext4', '--trigger', 'manual'];
  t.equal((await rig(args, env)).exitCode, 0, 'the earlier disk came up');
  t.equal((await rig(['disk', 'down', '--dir', dir], env)).exitCode, 0, 'and down, leaving its crash image');
  const kept = new Map(['crash.img', 'plan.json'].map((name) => [name, sha256(join(dir, name))]));
  const earlier = readdirSync(dir);
  const child = rig(args, env, { timeout: 60_000 });
  await waitForHelper(dir); // the new disk's record names its helper: its image is written
  child.kill('SIGINT');
  t.equal(await ended(child), 'SIGINT', 'the process ends by the signal it got');
  t.same(leftoversUnder(dir), [], 'no mount, loop device or helper');
  t.same(registered(), [], 'no disk registered');
  const left = readdirSync(dir);
  t.same(left.filter((name) => !earlier.includes(name)), [], `nothing new is left (${left.join(', ')})`);
  for (const name of ['disk.json', 'image.img', 'helper.log']) t.notOk(existsSync(join(dir, name)), `the ${name} it wrote is gone`);
  for (const [name, digest] of kept) t.equal(sha256(join(dir, name)), digest, `the earlier disk's ${name} is as it was`);
  const down = await rig(['disk', 'down', '--dir', dir], env);
  t.equal(down.exitCode, 2, 'no half-made disk is left for down to stumble on');
  t.match(down.stderr, /holds no power-fail disk/);
});

t.test('SIGINT during rig disk down: the disk is still taken down whole', async (t) => {
  const dir = workDir(t);
  const up = await rig(['disk', 'up', '--dir', dir, '--size', '128M', '--fs', 'ext4', '--trigger', 'manual'], env);
  t.equal(up.exitCode, 0, `up: ${up.stderr}`);
  const mnt = join(dir, 'mnt');
  const child = rig(['disk', 'down', '--dir', dir], env, { timeout: 60_000 });
  // the moment teardown has begun (its filesystem unmounted; the loop device and helper still to go)
  t.ok(await waitFor(() => !readFileSync('/proc/mounts', 'utf8').includes(` ${mnt} `) || child.exitCode !== null, 30_000, 2), 'teardown began');
  child.kill('SIGINT');
  // by the signal, unless it finished first (the crash image too); either way nothing is left up
  const end = await ended(child);
  t.ok(end === 'SIGINT' || end === 0, `the process ends by the signal, or done (${String(end)})`);
  t.same(leftoversUnder(dir), [], 'no mount, loop device or helper left up');
  t.same(registered(), [], 'no disk registered');
});

/** Starts test/fixtures/hold-disk.ts (compiled, as this file is) on `dir` and waits until its disk
 * is up (the child is boxed: an async function would otherwise wait for the process itself, which
 * is a promise too). */
async function holdDisk(dir: string): Promise<{ child: ResultPromise }> {
  const child = execa(process.execPath, [fileURLToPath(new URL('../fixtures/hold-disk.js', import.meta.url)), dir], {
    reject: false,
    extendEnv: false,
    env: plainEnv(env),
    timeout: 120_000,
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  const ready = await waitFor(() => out.includes('ready ') || child.exitCode !== null, 90_000, 50);
  if (!ready || !out.includes('ready ')) {
    child.kill('SIGKILL');
    throw new Error(`hold-disk did not come up: ${(await child).stderr}`);
  }
  return { child };
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  t.test(`${sig} to a process holding a disk leaves nothing`, async (t) => {
    const dir = workDir(t);
    const { child } = await holdDisk(dir);
    t.equal(leftoversUnder(dir).length, 5, 'the disk is up (two mounts, a loop device, its helper; and the holder)');
    child.kill(sig);
    t.equal(await ended(child), sig, 'the process ends by the signal it got');
    t.same(leftoversUnder(dir), [], 'no mount, loop device or helper');
    t.same(registered(), [], 'no disk registered');
  });
}

t.test('after SIGKILL, rig cleanup removes the remains, and then has nothing to clean', async (t) => {
  const dir = workDir(t);
  const { child } = await holdDisk(dir);
  child.kill('SIGKILL');
  t.equal(await ended(child), 'SIGKILL');
  const left = leftoversUnder(dir);
  t.equal(left.length, 4, `the killed process left its disk: ${left.join(', ')}`);
  const record = readRecord(dir)!;
  const first = await rig(['cleanup'], env);
  t.equal(first.exitCode, 0, `cleanup: ${first.stderr}`);
  t.same(String(first.stdout).trim().split('\n').sort(), [
    `detached ${record.loopDevice} (was on ${record.device})`,
    `stopped helper pid ${record.helperPid} of ${dir}`,
    `unmounted ${record.fuseDir}`,
    `unmounted ${record.mountPoint}`,
  ]);
  t.same(leftoversUnder(dir), [], 'no mount, loop device or helper');
  const second = await rig(['cleanup'], env);
  t.equal(second.exitCode, 0);
  t.equal(second.stdout, 'nothing to clean');
  t.same(registered(), [], 'no disk registered');
});

t.test('a loop device the record does not name yet (killed during losetup) is found by its FUSE file and detached', async (t) => {
  const dir = workDir(t);
  const { child } = await holdDisk(dir);
  child.kill('SIGKILL');
  t.equal(await ended(child), 'SIGKILL');
  const record = readRecord(dir)!;
  const loop = record.loopDevice!;
  saveRecord({ ...record, loopDevice: null, mountPoint: null }); // as if the rig died before losetup's answer was saved
  const cleanup = await rig(['cleanup'], env);
  t.equal(cleanup.exitCode, 0, `cleanup: ${cleanup.stderr}`);
  t.match(cleanup.stdout, `detached ${loop} (was on ${record.device})`);
  t.same(leftoversUnder(dir), [], 'no mount, loop device or helper');
});

t.test('rig cleanup leaves a disk whose owner still runs, and takes a handed-over one by --dir', async (t) => {
  const owned = workDir(t);
  const up1 = await rig(['disk', 'up', '--dir', owned, '--size', '64M', '--fs', 'none', '--owner-pid', String(process.pid)], env);
  t.equal(up1.exitCode, 0, `up: ${up1.stderr}`);
  const free = workDir(t);
  const up2 = await rig(['disk', 'up', '--dir', free, '--size', '64M', '--fs', 'none'], env);
  t.equal(up2.exitCode, 0, `up: ${up2.stderr}`);
  const all = await rig(['cleanup'], env);
  t.equal(all.stdout, 'nothing to clean', 'neither is left over');
  t.equal(leftoversUnder(owned).length, 3, 'the owned disk is still up');
  t.equal(leftoversUnder(free).length, 3, 'the handed-over disk is still up');
  const one = await rig(['cleanup', '--dir', free], env);
  t.equal(one.exitCode, 0);
  t.equal(String(one.stdout).trim().split('\n').length, 3, `removed: ${one.stdout}`);
  t.same(leftoversUnder(free), [], 'the named disk is gone');
  t.equal(leftoversUnder(owned).length, 3, 'the other is still up');
  const kept = await rig(['cleanup', '--dir', owned], env);
  t.match(kept.stderr, /kept .*held by running pid/);
  t.equal(leftoversUnder(owned).length, 3, 'a disk whose owner runs is left to it');
});

/** `rig disk status --json`, parsed. */
async function statusOf(dir: string): Promise<{ cut: boolean; cutReason: string; writes: number; flushes: number; pending: number; cutPending: number }> {
  const r = await rig(['disk', 'status', '--dir', dir, '--json'], env);
  if (r.exitCode !== 0) throw new Error(`status: ${r.stderr}`);
  return JSON.parse(String(r.stdout));
}

t.test('rig disk up, status, down on ext4: the armed cut, a crash image rebuilt byte for byte', async (t) => {
  const dir = workDir(t);
  const up = await rig(['disk', 'up', '--dir', dir, '--size', '128M', '--fs', 'ext4', '--atomic', '4k'], env);
  t.equal(up.exitCode, 0, `up: ${up.stderr}`);
  const mnt = String(up.stdout).trim();
  t.equal(mnt, join(dir, 'mnt'), 'prints the mount point');
  // 8 pages (armed counts the pages of each write): below the trigger's 16 at the fsync
  await execa('dd', ['if=/dev/urandom', `of=${mnt}/data`, 'bs=64k', 'count=2', 'conv=fsync']);
  const status = await rig(['disk', 'status', '--dir', dir], env);
  t.equal(status.exitCode, 0);
  const before = await statusOf(dir);
  t.ok(before.writes >= 1 && before.flushes >= 1 && !before.cut, `writes ${before.writes}, flushes ${before.flushes}`);
  t.match(status.stdout, /^cut\s+no$/m);
  t.match(status.stdout, /^trigger\s+armed 16$/m);
  t.match(status.stdout, /^since armed\s+\d+ writes, \d+ flushes/m);
  // 32 page writes nobody flushed; the next flush (ours, or ext4's journal commit) fires the cut
  await execa('dd', ['if=/dev/urandom', `of=${mnt}/data`, 'bs=16k', 'count=32', 'oflag=direct', 'conv=notrunc']);
  const sync = execa('sync', ['-f', `${mnt}/data`], { reject: false }); // held at the cut until down
  t.ok(await waitFor(async () => (await statusOf(dir)).cut, 30_000, 200), 'the armed trigger fired');
  const atCut = await statusOf(dir);
  t.equal(atCut.cutReason, 'armed');
  t.ok(atCut.cutPending >= 32, `${atCut.cutPending} writes pending at the cut`);
  const cut = await rig(['disk', 'cut', '--dir', dir], env);
  t.equal(cut.exitCode, 0);
  t.equal(String(cut.stdout).trim().split(' (')[0], `already cut`);
  const down = await rig(['disk', 'down', '--dir', dir, '--seed', '7'], env);
  t.equal(down.exitCode, 0, `down: ${down.stderr}`);
  t.not((await sync).exitCode, 0, 'the flush held at the cut failed once the disk was let go');
  const sha = String(down.stdout).trim();
  t.match(sha, /^[0-9a-f]{64}$/);
  t.same(leftoversUnder(dir), [], 'down leaves nothing');
  t.equal(sha256(join(dir, 'crash.img')), sha, 'the printed sha256 is crash.img');
  const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as CrashPlan;
  t.equal(plan.writes.length, atCut.cutPending, 'the plan decides every write pending at the cut');
  t.ok(plan.writes.some((w) => w.fate === 'torn'), 'some writes tear at 4k');
  const again = await rig(['disk', 'down', '--dir', dir, '--seed', '7'], env);
  t.equal(String(again.stdout).trim(), sha, 'a second down with the same seed: same sha256');
  const rebuilt = join(root, 'rebuilt.img');
  const resha = await rebuildCrashImage(join(dir, 'image.img'), join(dir, 'journal.bin'), join(dir, 'plan.json'), rebuilt);
  t.equal(resha, sha, 'rebuilt from the saved plan: same sha256');
  t.equal(sha256(rebuilt), sha);
  const other = await rig(['disk', 'down', '--dir', dir, '--seed', '8'], env);
  t.not(String(other.stdout).trim(), sha, 'another seed, another crash image');
});

t.test('rig disk cut on the raw device: a manual cut takes what is pending', async (t) => {
  const dir = workDir(t);
  const up = await rig(['disk', 'up', '--dir', dir, '--size', '16M', '--fs', 'none', '--trigger', 'manual'], env);
  t.equal(up.exitCode, 0, `up: ${up.stderr}`);
  const dev = String(up.stdout).trim();
  t.match(dev, /^\/dev\/loop\d+$/, 'prints the loop device');
  await execa('dd', ['if=/dev/urandom', `of=${dev}`, 'bs=4k', 'count=4', 'oflag=direct,sync']);
  await execa('dd', ['if=/dev/urandom', `of=${dev}`, 'bs=16k', 'count=8', 'seek=4', 'oflag=direct']);
  const cut = await rig(['disk', 'cut', '--dir', dir], env);
  t.equal(cut.stdout, 'cut: 8 writes pending (8 of page size or more)');
  const down = await rig(['disk', 'down', '--dir', dir, '--seed', '3'], env);
  t.equal(down.exitCode, 0, `down: ${down.stderr}`);
  t.match(down.stderr, /\(8 pending writes, \d+ torn\)/);
  t.same(leftoversUnder(dir), [], 'down leaves nothing');
});
