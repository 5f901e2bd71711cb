/**
 * A scan counts the pages of unwritten extents (allocated, never written) as the zero pages they
 * are without reading them, and its result is the one reading every page gives: on ext4 and xfs,
 * tablespaces extended with fallocate, a range zeroed back to unwritten inside the doublewrite
 * area, a damaged page written out in the middle of unwritten extents, one written into an
 * unwritten extent and not yet written out (only the page cache holds it), and two damaged pages
 * partly unwritten (an unwritten range that starts and ends inside a page).
 */
import t from 'tap';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { sweepDisks } from '../../faults/sweep-disks.js';
import { freshFsDisk } from '../fixtures/fresh-fs-disk.js';
import { scanDatadir } from '../../rig/pages/scan-datadir.js';
import { writeMariadbDatadir } from '../fixtures/pages/synthetic-datadir.js';

const work = mkdtempSync(join(tmpdir(), 'rig-scan-zeros-'));
const registryDir = join(work, 'registry');
t.teardown(async () => {
  await sweepDisks({ registryDir });
  rmSync(work, { recursive: true, force: true });
});

const PS = 16384;
const ADDED = 320; // pages fallocate adds to t.ibd: unwritten

/** Bytes this process has read through read calls so far (/proc/self/io rchar). */
function bytesRead(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

function writePage(path: string, page: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, bytes, 0, bytes.length, page * PS);
  closeSync(fd);
}

for (const fs of ['ext4', 'xfs'] as const) {
  t.test(`${fs}: unwritten pages counted, not read; the scan the same as reading every page`, async (t) => {
    const disk = await freshFsDisk(t, work, registryDir, fs);
    const sparse = join(disk.target, 'sparse');
    mkdirSync(sparse);
    const { ibdata1, tIbd } = writeMariadbDatadir(sparse);
    await execa('sync');
    await execa('fallocate', ['-o', String(6 * PS), '-l', String(ADDED * PS), tIbd]);
    await execa('fallocate', ['--zero-range', '-o', String(120 * PS), '-l', String(40 * PS), ibdata1]); // in the doublewrite area
    writePage(tIbd, 200, Buffer.alloc(PS, 0x33));
    writePage(tIbd, 300, Buffer.alloc(PS, 0x55));
    writePage(tIbd, 303, Buffer.alloc(PS, 0x66));
    await execa('sync');
    // unwritten again from 4 KiB into page 300 to 4 KiB into page 303: two pages straddle its ends
    await execa('fallocate', ['--zero-range', '-o', String(300 * PS + 4096), '-l', String(3 * PS), tIbd]);
    writePage(tIbd, 100, Buffer.alloc(PS, 0x44)); // only in the page cache when the scan starts
    const extents = (await execa('filefrag', ['-v', tIbd])).stdout;
    t.match(extents, /unwritten/, `t.ibd has unwritten extents on ${fs}`);

    const before = bytesRead();
    const scan = await scanDatadir(sparse);
    const read = bytesRead() - before;
    // the same files written out whole: every page on written blocks, each one read
    const dense = join(disk.target, 'dense');
    for (const rel of ['ibdata1', 'ibtmp1', 'db/t.ibd', 'db/t.frm']) {
      mkdirSync(dirname(join(dense, rel)), { recursive: true });
      writeFileSync(join(dense, rel), readFileSync(join(sparse, rel))); // every byte written
    }
    await execa('sync');
    t.notMatch((await execa('filefrag', ['-v', join(dense, 'db', 't.ibd')])).stdout, /unwritten/, 'the dense copy has no unwritten extent');
    const reference = await scanDatadir(dense);

    const summary = (s: typeof scan) => s.files.map(({ file, space, pages, zeroPages, skippedPages, invalid }) => ({ file, space, pages, zeroPages, skippedPages, invalid }));
    t.same(summary(scan), summary(reference), 'the same pages, zero pages, pages left out and invalid pages');
    t.same(scan.invalid.map((p) => `${p.file}:${p.page}`), [100, 200, 300, 303].map((n) => `./db/t.ibd:${n}`),
      'judged: the page written out, the one still in the page cache, and the two partly unwritten');
    const tScan = scan.files.find((f) => f.file === './db/t.ibd')!;
    t.equal(tScan.pages, 6 + ADDED, 'every page of t.ibd counted');
    t.equal(tScan.zeroPages, 4 + ADDED - 4, 'its zero pages: the four written as zeros and the unwritten ones');
    t.equal(scan.files[0]!.skippedPages, 128, "ibdata1's doublewrite area left out, its unwritten range too");
    const whole = (200 + 6 + ADDED) * PS;
    t.ok(read < whole / 2, `${(read / 1048576).toFixed(1)} MiB read of ${(whole / 1048576).toFixed(1)} MiB of tablespaces`);
  });
}
