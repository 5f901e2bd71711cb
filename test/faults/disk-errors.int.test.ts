/**
 * The helper's error paths on the real stack (loop device over the FUSE helper): a journal dump
 * that fails at the cut is an `err` reply and a rig failure, never a crash image; a write the
 * image takes only in part fails and leaves nothing of itself in the image; a big dump does not
 * stop the helper from answering.
 */
import t, { type Test } from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { buildCrashImage } from '../../faults/crash-image.js';
import { makePlan } from '../../faults/crash-plan.js';
import { loadJournal } from '../../faults/journal.js';
import { materializeCrashImage } from '../../faults/materialize.js';
import type { PowerFailDisk } from '../../faults/power-fail-disk.js';
import { startDisk } from '../../faults/start-disk.js';
import { DiskError } from '../../faults/disk-error.js';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const MiB = 1 << 20;

/** A raw 16 MiB disk with a manual trigger, taken down (and its folder removed) in teardown. */
async function rawDisk(t: Test): Promise<{ dir: string; disk: PowerFailDisk }> {
  const dir = mkdtempSync(join(tmpdir(), 'rig-errors-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 16 * MiB, fs: 'none', atomicUnit: 4096, pageSize: 16384, journalMaxBytes: 256 * MiB, model: LOCAL.device, trigger: { kind: 'manual' } });
  t.teardown(() => disk.down());
  return { dir, disk };
}

/** Caps the size of any file the helper writes (the image's offsets and the journal dump alike). */
async function limitHelperFileSize(disk: PowerFailDisk, bytes: number): Promise<void> {
  await execa('prlimit', ['--pid', String(disk.record.helperPid), `--fsize=${bytes}`]);
}

async function writePending(device: string): Promise<void> {
  await execa('dd', ['if=/dev/urandom', `of=${device}`, 'bs=16k', 'count=8', 'oflag=direct', 'status=none']);
}

const dumpFailures: { name: string; breakDump(dir: string, disk: PowerFailDisk): Promise<void>; says: RegExp; left: string[] }[] = [
  {
    name: 'the journal file cannot be opened',
    breakDump: async (dir) => mkdirSync(join(dir, 'journal.bin.tmp')), // a folder where the dump goes
    says: /journal dump to \S+journal\.bin failed: Is a directory$/,
    left: ['journal.bin.tmp'], // the folder itself
  },
  {
    name: 'the journal file cannot be written past 4 KiB',
    breakDump: (_dir, disk) => limitHelperFileSize(disk, 4096), // the dump of 8 x 16 KiB needs ~256 KiB
    says: /journal dump to \S+journal\.bin failed: File too large$/,
    left: [], // the partial dump was removed
  },
];

for (const c of dumpFailures) {
  t.test(`a failed dump is an error, not ok: ${c.name}`, async (t) => {
    const { dir, disk } = await rawDisk(t);
    await writePending(disk.target);
    await c.breakDump(dir, disk);
    const cut = await disk.cut().then(() => null, (e: unknown) => e);
    t.ok(cut instanceof DiskError && cut.code === 'rig-failure', 'the cut is a rig failure');
    t.match((cut as Error).message, c.says);
    const again = await disk.cutStatus().then(() => null, (e: unknown) => e);
    t.match((again as Error | null)?.message, c.says, 'asking for the cut again gives the same error');
    const status = await disk.status();
    t.ok(status.cut && status.dumpError < 0, `status says the dump failed (dumpError ${status.dumpError})`);
    t.same(readdirSync(dir).filter((n) => n.startsWith('journal.bin')), c.left, 'no journal, whole or partial, where the crash image looks');
    await disk.down();
    await t.rejects(buildCrashImage(dir, 1, 4096), /journal\.bin does not exist: .*journal dump at the cut failed/, 'no crash image');
    t.notOk(existsSync(join(dir, 'crash.img')));
  });
}

t.test('a trigger whose dump failed: wait-cut is an error, rig disk down exits 3 with no crash image', async (t) => {
  await ensureBuilt();
  const { dir, disk } = await rawDisk(t);
  await disk.arm({ kind: 'after-writes', writes: 4 });
  mkdirSync(join(dir, 'journal.bin.tmp'));
  // the 5th write fires the cut and is held until the disk goes down
  const writer = execa('dd', ['if=/dev/urandom', `of=${disk.target}`, 'bs=16k', 'count=8', 'oflag=direct', 'status=none'], { reject: false });
  await t.rejects(disk.waitCut(10_000), /journal dump to \S+ failed: Is a directory/, 'wait-cut reports the failed dump');
  const down = await rig(['disk', 'down', '--dir', dir, '--seed', '1']);
  t.equal(down.exitCode, 3, 'a rig failure');
  t.match(String(down.stderr), /journal dump to \S+ failed: Is a directory/);
  t.equal(down.stdout, '', 'no sha256 printed');
  t.notOk(existsSync(join(dir, 'crash.img')), 'no crash image');
  t.same(leftoversUnder(dir), [], 'the disk was taken down all the same');
  t.not((await writer).exitCode, 0, 'the write held at the cut failed once the disk was let go');
});

t.test('a big journal: status answers while it is dumped, the cut once it is written', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-errors-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 128 * MiB, fs: 'none', atomicUnit: 4096, pageSize: 16384, journalMaxBytes: 512 * MiB, model: LOCAL.device, trigger: { kind: 'manual' } });
  t.teardown(() => disk.down());
  await execa('dd', ['if=/dev/urandom', `of=${disk.target}`, 'bs=1M', 'count=96', 'oflag=direct', 'status=none']);
  const started = Date.now();
  let done = false;
  const cut = disk.cut().finally(() => (done = true));
  let answeredWhileDumping = 0;
  while (!done) if ((await disk.status()).dumping) answeredWhileDumping++;
  const status = await cut;
  const ms = Date.now() - started;
  const bytes = statSync(join(dir, 'journal.bin')).size;
  t.ok(answeredWhileDumping > 0, `status answered ${answeredWhileDumping} times during the dump (${bytes >> 20} MiB in ${ms} ms)`);
  t.notOk(status.dumping, 'the cut answers once the dump is done');
  const journal = loadJournal(join(dir, 'journal.bin'));
  t.equal(journal.length, status.cutPending, 'the journal holds every write pending at the cut');
  t.equal(journal.reduce((n, e) => n + e.length, 0), 96 * MiB, 'and all 96 MiB of them');
});

t.test('a write the image takes only in part fails, and nothing of it stays in the image', async (t) => {
  const { dir, disk } = await rawDisk(t);
  const limit = 8 * MiB + 512; // the write at 8 MiB reaches the image for 512 bytes, then EFBIG
  await limitHelperFileSize(disk, limit);
  const w = await execa('dd', ['if=/dev/urandom', `of=${disk.target}`, 'bs=1M', 'count=4', 'seek=6', 'oflag=direct'], { reject: false });
  t.not(w.exitCode, 0, `the write across the limit failed: ${w.stderr.trim().split('\n')[0]}`);
  const status = await disk.cut();
  t.equal(status.broken, '', 'the failed write was undone, so the disk is not broken');
  await disk.down();
  const journal = loadJournal(join(dir, 'journal.bin'));
  t.equal(journal.reduce((n, e) => n + e.length, 0), 2 * MiB, 'the journal holds the 2 MiB written before 8 MiB, and only those');
  t.ok(journal.every((e) => e.offset + e.length <= 8 * MiB), 'no failed write is journaled');
  const image = readFileSync(join(dir, 'image.img'));
  t.ok(image.subarray(8 * MiB).every((b) => b === 0), 'the image from 8 MiB on is as it was');
  const dropped = join(dir, 'dropped.img');
  await materializeCrashImage(join(dir, 'image.img'), journal, makePlan(journal, 1, 4096, { land: 0, drop: 1, tear: 0 }), dropped);
  t.ok(readFileSync(dropped).every((b) => b === 0), 'rolling back the journal gives the disk as it was before any write');
});
