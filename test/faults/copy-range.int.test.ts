/**
 * The armed trigger with a copy range (the doublewrite area): it fires only at a flush that finds
 * enough home writes in flight whose copies were made durable in the range before, not at one
 * that finds page writes no copy stands behind. Real stack: loop device over the FUSE helper.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { loadJournal } from '../../faults/journal.js';
import { startDisk } from '../../faults/power-fail-disk.js';

const PAGE = 16384;
const MiB = 1 << 20;
const write = (fill: number, offset: number) => ['-c', `pwrite -q -b ${PAGE} -S 0x${fill.toString(16)} ${offset} ${PAGE}`];
const flush = ['-c', 'fsync'];

t.test('armed counts home writes whose copy is durable, and nothing else', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-copies-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, trigger: null });
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
  const disk = await startDisk({ dir, sizeBytes: 4 * MiB, fs: 'none', atomicUnit: 4096, pageSize: PAGE, journalMaxBytes: 256 * MiB, trigger: null });
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
