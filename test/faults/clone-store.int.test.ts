/**
 * The disks explore judges its states on: a loop disk serves an image in place and leaves nothing
 * behind when taken down, or when its owner dies and `rig cleanup` sweeps it; a clone store clones
 * files sharing their blocks (a clone's writes leave its source as it was), and comes down whole,
 * with a crash image's disk still on it taken down first.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statfsSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { CloneStore } from '../../faults/clone-store.js';
import { diskEnvironmentFromEnv } from '../../faults/disk-environment.js';
import { readRecord, registeredDisks } from '../../faults/disk-record.js';
import { mountData, startLoopDisk } from '../../faults/loop-disk.js';
import { sweepDisks, sweepOrder } from '../../faults/sweep-disks.js';
import { loopBackingFile, loopDevicesBackedBy, mountsAtOrBelow, waitFor } from '../../faults/system.js';

const work = mkdtempSync(join(tmpdir(), 'rig-clone-store-'));
const registryDir = join(work, 'registry');
const environment = { ...diskEnvironmentFromEnv(), registryDir };
t.teardown(async () => {
  await sweepDisks({ registryDir });
  rmSync(work, { recursive: true, force: true });
});

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

async function ext4Image(path: string): Promise<void> {
  closeSync(openSync(path, 'w'));
  truncateSync(path, 64 << 20);
  await execa('mkfs.ext4', ['-q', '-F', path]);
}

t.test('a loop disk serves its image in place and leaves nothing behind', async (t) => {
  const image = join(work, 'a.img');
  await ext4Image(image);
  const disk = await startLoopDisk({ dir: join(work, 'a'), image, fs: 'ext4', environment });
  t.equal(disk.target, join(work, 'a', 'mnt'), 'mounted in its folder');
  t.equal(disk.record.backend, 'loop', 'recorded as a loop disk');
  const options = readFileSync('/proc/self/mounts', 'utf8').split('\n').find((l) => l.split(' ')[1] === disk.target)?.split(' ')[3] ?? '';
  t.match(options, /(^|,)nobarrier(,|$)/, 'ext4 sends it no cache flushes: it cannot lose power');
  t.same([mountData('ext4'), mountData('ext4-bigalloc16k'), mountData('xfs')], ['barrier=0', 'barrier=0', null], 'XFS has no such option');
  t.same(loopDevicesBackedBy(image), [disk.record.loopDevice], `${disk.record.loopDevice} is over the image itself`);
  t.ok(registeredDisks(registryDir).some((r) => r.dir === disk.record.dir), 'registered for rig cleanup');
  writeFileSync(join(disk.target, 'f'), 'written through the disk');
  const report = await disk.down();
  t.same(report.problems, [], 'taken down without a problem');
  t.same(mountsAtOrBelow(join(work, 'a')), [], 'unmounted');
  t.same(loopDevicesBackedBy(image), [], 'its loop device let go of the image');
  t.notOk(registeredDisks(registryDir).some((r) => r.dir === disk.record.dir), 'no longer registered');
  const again = await startLoopDisk({ dir: join(work, 'a'), image, fs: 'ext4', environment });
  t.equal(readFileSync(join(again.target, 'f'), 'utf8'), 'written through the disk', 'what it wrote is in the image');
  await again.down();
});

t.test('bad input: one line naming the problem, nothing made', async (t) => {
  await t.rejects(startLoopDisk({ dir: join(work, 'b'), image: join(work, 'missing.img'), fs: 'ext4', environment }), /missing\.img does not exist/);
  await t.rejects(startLoopDisk({ dir: join(work, 'b'), image: join(work, 'a.img'), fs: 'none', environment }), /carries a filesystem; none is none/);
  t.notOk(existsSync(join(work, 'b')), 'no folder made');
  const image = join(work, 'c.img');
  writeFileSync(image, Buffer.alloc(1 << 20)); // no filesystem in it
  await t.rejects(startLoopDisk({ dir: join(work, 'c'), image, fs: 'ext4', environment }), /the loop disk over .*c\.img did not mount: mount \/dev\/loop\d+: /);
  t.same(mountsAtOrBelow(join(work, 'c')), [], 'nothing mounted');
  t.same(loopDevicesBackedBy(image), [], 'no loop device left over the image');
  t.equal(readRecord(join(work, 'c'))?.loopDevice ?? null, null, 'the record names no device');
  t.notOk(registeredDisks(registryDir).some((r) => r.dir === join(work, 'c')), 'not registered');
});

/** A loop disk over a new image NAME.img, owned by a process that `killOwner` ends as a killed run ends. */
async function ownedLoopDisk(name: string) {
  const image = join(work, `${name}.img`);
  await ext4Image(image);
  const owner = spawn('sleep', ['60']);
  await new Promise((resolve) => owner.once('spawn', resolve));
  const disk = await startLoopDisk({ dir: join(work, name), image, fs: 'ext4', environment, ownerPid: owner.pid! });
  const killOwner = async () => {
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
  };
  return { image, disk, killOwner };
}

t.test("a loop disk whose owner died is swept by rig cleanup's sweep", async (t) => {
  const { image, disk, killOwner } = await ownedLoopDisk('d');
  const kept = await sweepDisks({ registryDir });
  t.same(kept.removed, [], 'kept while its owner lives');
  await killOwner();
  const swept = await sweepDisks({ registryDir });
  t.same(swept.problems, [], 'swept without a problem');
  t.ok(swept.removed.some((line) => line === `unmounted ${disk.target}`), `it says what it took down: ${swept.removed.join('; ')}`);
  t.same(mountsAtOrBelow(join(work, 'd')), [], 'unmounted');
  t.same(loopDevicesBackedBy(image), [], 'no loop device left');
});

t.test('a loop device freed and taken by another image before the sweep is left to its new owner', async (t) => {
  const { image, disk, killOwner } = await ownedLoopDisk('e');
  const dev = disk.record.loopDevice!;
  await killOwner();
  // the state a busy machine makes: the disk's device let go by autoclear and at once attached by another
  await execa('umount', [disk.target]);
  const other = join(work, 'other.img');
  writeFileSync(other, Buffer.alloc(1 << 20));
  // here the other is this test, unless a disk of a test running beside it takes the freed device first:
  // the same state, but then that device is not this test's to detach or to expect unchanged
  let ours = false;
  const taken = await waitFor(async () => {
    const backing = loopBackingFile(dev);
    if (backing !== null) return backing !== image; // still ours until autoclear lets go
    ours = await execa('losetup', [dev, other]).then(() => true, () => false);
    return ours;
  }, 5000);
  t.ok(taken, `${dev} serves another image (${loopBackingFile(dev)}), not the disk's`);
  if (ours) t.teardown(() => execa('losetup', ['-d', dev]).catch(() => undefined));
  const swept = await sweepDisks({ registryDir });
  t.same(swept.problems, [], 'swept without a problem');
  if (ours) t.equal(loopBackingFile(dev), other, `${dev} still serves the other image`);
  t.notOk(registeredDisks(registryDir).some((r) => r.dir === disk.record.dir), 'the disk is forgotten');
});

t.test('a clone store clones files sharing their blocks, and comes down whole', async (t) => {
  const store = await CloneStore.open(join(work, 'store'), 2 * 1024 ** 3, { environment });
  const source = join(store.root, 'source.img');
  const fd = openSync(source, 'w');
  const data = Buffer.alloc(32 << 20);
  for (let i = 0; i < data.length; i += 4096) data.writeUInt32LE(i, i);
  writeSync(fd, data, 0, data.length, 0);
  closeSync(fd);
  const before = sha(source);
  const used = () => { const s = statfsSync(store.root); return (s.blocks - s.bfree) * s.bsize; };
  const usedBefore = used();
  store.clone(source, join(store.root, 'clone.img'));
  t.ok(used() - usedBefore < 1 << 20, `a 32 MiB clone took ${used() - usedBefore} bytes: its blocks are shared`);
  t.equal(sha(join(store.root, 'clone.img')), before, 'the clone holds the same bytes');
  const clone = openSync(join(store.root, 'clone.img'), 'r+');
  writeSync(clone, Buffer.alloc(8192, 7), 0, 8192, 4096 * 10);
  closeSync(clone);
  t.equal(sha(source), before, "the clone's writes leave the source as it was");
  t.not(sha(join(store.root, 'clone.img')), before, 'and are in the clone');
  // a crash image's disk on the store, left up as a killed run leaves it: swept before the store
  const image = join(store.root, 'crash.img');
  await ext4Image(image);
  const disk = await startLoopDisk({ dir: join(work, 'on-store'), image, fs: 'ext4', environment });
  const storeRecord = registeredDisks(registryDir).find((r) => r.image === join(work, 'store', 'store.img'))!;
  t.ok(storeRecord, 'the store is registered as a loop disk');
  t.same(sweepOrder([storeRecord, disk.record]).map((r) => r.dir), [disk.record.dir, storeRecord.dir], 'the disk on the store is swept before the store');
  await disk.down();
  await store.close();
  t.notOk(existsSync(join(work, 'store')), 'the store and its folder are gone');
  t.same(mountsAtOrBelow(work), [], 'nothing mounted');
  t.same(loopDevicesBackedBy(storeRecord.image), [], 'no loop device over the store');
});
