/**
 * The armed trigger counts pages: a write of several pages counts each (RocksDB writes an SST in a
 * few 1 MiB writes), a write shorter than a page counts none. Its device ranges. With a copy range (the doublewrite area) it fires only at a
 * flush that finds enough home writes in flight whose copies were made durable in the range
 * before, not at one that finds page writes no copy stands behind. With a skip range (temporary
 * tablespaces) it does not count the writes there. Real stack: loop device over the FUSE helper.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { loadJournal } from '../../faults/journal.js';
import { sendCommand } from '../../faults/control-client.js';
import { startDisk } from '../../faults/start-disk.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const PAGE = 16384;
const MiB = 1 << 20;
const write = (fill: number, offset: number) => ['-c', `pwrite -q -b ${PAGE} -S 0x${fill.toString(16)} ${offset} ${PAGE}`];
const flush = ['-c', 'fsync'];

t.test('armed counts home writes whose copy is durable, and nothing else', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-copies-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, model: LOCAL.device, trigger: null });
  t.teardown(() => disk.down());
  await disk.addCopyRange(0, 4 * PAGE);
  await disk.arm({ kind: 'armed', pendingPageWrites: 2 });
  const program = [
    ...write(0xaa, 0), ...write(0xbb, PAGE), ...flush, // the copies, made durable
    ...write(0xcc, MiB), ...write(0xdd, MiB + PAGE), ...flush, // page writes with no copy: no cut
    ...write(0xaa, 2 * MiB), ...write(0xee, 3 * MiB), ...flush, // one home write with a copy: too few
    ...write(0xaa, 2 * MiB), ...write(0xbb, 2 * MiB + PAGE), ...flush, // two: the cut
  ];
  const writer = execa('xfs_io', ['-d', ...program, disk.target], { reject: false });
  const status = await disk.waitCut(30_000);
  t.ok(status, 'the armed trigger fired');
  t.equal(status?.copyRanges, 1);
  await disk.down();
  await writer;
  const journal = loadJournal(join(dir, 'journal.bin'));
  t.same(journal.map((e) => [e.offset, e.new[0]]), [[2 * MiB, 0xaa], [2 * MiB + PAGE, 0xbb]], 'it fired at the flush of the home writes, not before');
});

t.test('once the copy ranges are forgotten, armed counts every page write again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-copies-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, model: LOCAL.device, trigger: null });
  t.teardown(() => disk.down());
  await disk.addCopyRange(0, 4 * PAGE);
  await disk.clearCopyRanges();
  t.equal((await disk.status()).copyRanges, 0, 'no copy range left');
  await disk.arm({ kind: 'armed', pendingPageWrites: 2 });
  const writer = execa('xfs_io', ['-d', ...write(0xcc, MiB), ...write(0xdd, MiB + PAGE), ...flush, disk.target], { reject: false });
  const status = await disk.waitCut(30_000);
  t.ok(status, 'two page writes with no copy behind them fired the cut');
  await disk.down();
  await writer;
  t.same(loadJournal(join(dir, 'journal.bin')).map((e) => e.offset), [MiB, MiB + PAGE]);
});

t.test('armed counts the pages of a write, not the write', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-pages-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, model: LOCAL.device, trigger: null });
  t.teardown(() => disk.down());
  await disk.arm({ kind: 'armed', pendingPageWrites: 4 });
  const span = (fill: number, offset: number, bytes: number) => ['-c', `pwrite -q -b ${bytes} -S 0x${fill.toString(16)} ${offset} ${bytes}`];
  const program = [
    ...span(0xa1, 0, 4096), ...span(0xa2, 8192, 4096), ...span(0xa3, 2 * PAGE, 8192), ...flush, // shorter than a page: none counted
    ...span(0xb1, MiB, 3 * PAGE), ...flush, // one write of three pages: too few
    ...span(0xc1, 2 * MiB, 4 * PAGE), ...flush, // one write of four pages: the cut
  ];
  const writer = execa('xfs_io', ['-d', ...program, disk.target], { reject: false });
  const status = await disk.waitCut(30_000);
  t.equal(status?.cutReason, 'armed', 'the armed trigger fired');
  t.equal(status?.cutPending, 1, 'at the flush with a single write pending');
  await disk.down();
  await writer;
  t.same(loadJournal(join(dir, 'journal.bin')).map((e) => [e.offset, e.new.length, e.new[0]]), [[2 * MiB, 4 * PAGE, 0xc1]], 'the four-page write fired it, the shorter ones before it did not');
});

t.test('armed does not count page writes in a skip range', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-skips-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, model: LOCAL.device, trigger: null });
  t.teardown(() => disk.down());
  await disk.addSkipRange(MiB, MiB);
  t.equal((await disk.status()).skipRanges, 1);
  await disk.arm({ kind: 'armed', pendingPageWrites: 2 });
  const program = [
    ...write(0xcc, MiB), ...write(0xdd, MiB + PAGE), ...write(0xee, 2 * MiB - PAGE), ...flush, // all skipped: no cut
    ...write(0xa1, 3 * MiB), ...write(0xb1, MiB + 2 * PAGE), ...flush, // one counted: too few
    ...write(0xaa, 3 * MiB), ...write(0xbb, MiB + 2 * PAGE), ...write(0xab, 3 * MiB + PAGE), ...flush, // two: the cut
  ];
  const writer = execa('xfs_io', ['-d', ...program, disk.target], { reject: false });
  const status = await disk.waitCut(30_000);
  t.ok(status, 'the armed trigger fired');
  t.equal(status?.cutPendingPageWrites, 3, 'at the flush with three page writes pending, one of them skipped');
  await disk.down();
  await writer;
  const journal = loadJournal(join(dir, 'journal.bin'));
  t.same(journal.map((e) => [e.offset, e.new[0]]), [[3 * MiB, 0xaa], [MiB + 2 * PAGE, 0xbb], [3 * MiB + PAGE, 0xab]], 'the skipped writes before it did not fire it');
});

t.test('after-writes does not count writes in a skip range either', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-skips-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, model: LOCAL.device, trigger: null });
  t.teardown(() => disk.down());
  await disk.addSkipRange(MiB, MiB);
  await disk.arm({ kind: 'after-writes', writes: 2 });
  const program = [...write(0xcc, MiB), ...write(0xdd, MiB + PAGE), ...write(0xa1, 3 * MiB), ...write(0xee, MiB + 2 * PAGE), ...write(0xa2, 3 * MiB + PAGE), ...write(0xa3, 0)];
  const writer = execa('xfs_io', ['-d', ...program, disk.target], { reject: false });
  const status = await disk.waitCut(30_000);
  t.equal(status?.cutReason, 'after-writes');
  await disk.down();
  await writer;
  t.same(loadJournal(join(dir, 'journal.bin')).map((e) => e.new[0]), [0xcc, 0xdd, 0xa1, 0xee, 0xa2], 'the third counted write was held, the skipped ones did not count');
});

t.test('a skip range needs an offset and a length; the helper says so', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-skips-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, model: LOCAL.device, trigger: null });
  t.teardown(() => disk.down());
  await t.rejects(sendCommand(disk.record.controlSocket, 'skip-range 4096'), /skip-range takes a device offset and a length above zero/);
  await t.rejects(sendCommand(disk.record.controlSocket, 'skip-range x 4096'), /skip-range takes a device offset and a length above zero/);
  for (let i = 0; i < 32; i++) await disk.addSkipRange(i * PAGE, PAGE);
  await t.rejects(disk.addSkipRange(MiB, PAGE), /at most 32 skip-ranges/);
  await sendCommand(disk.record.controlSocket, 'skip-range none');
  t.equal((await disk.status()).skipRanges, 0, 'none forgets them all');
});
