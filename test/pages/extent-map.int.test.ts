/**
 * buildExtentMap / mapRangeToPages on a real filesystem on a real loop device over a plain file.
 * The oracle is independent of FIEMAP: each page's bytes are found in the raw image by search.
 */
import { execa } from 'execa';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { buildExtentMap } from '../../rig/pages/extent-map.js';
import { mapRangeToPages } from '../../rig/pages/map-range.js';
import { loadPage } from '../fixtures/pages/fixture-pages.js';
import { makeTempDir, movedPage, tablespaceBytes } from '../fixtures/pages/synthetic-datadir.js';

const skip = process.getuid?.() === 0 ? false : 'needs root for loop devices and mount';

type Tap = { teardown(fn: () => unknown): void };

async function mountedImage(t: Tap, mkfs: string[], sizeMb: number): Promise<{ image: string; mnt: string }> {
  const dir = makeTempDir(t, 'pages-fiemap-');
  const image = join(dir, 'disk.img');
  const mnt = join(dir, 'mnt');
  mkdirSync(mnt);
  await execa('truncate', ['-s', `${sizeMb}M`, image]);
  await execa(mkfs[0]!, [...mkfs.slice(1), image]);
  const loop = (await execa('losetup', ['--find', '--show', image])).stdout.trim();
  t.teardown(async () => {
    await execa('umount', [mnt], { reject: false });
    await execa('losetup', ['-d', loop], { reject: false });
  });
  await execa('mount', [loop, mnt]);
  return { image, mnt };
}

/** Pages whose bytes are unique in the image: real pages renumbered 0..n-1, checksums restamped. */
function uniquePages(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => (i === 0 ? loadPage('full_crc32-16384-p0') : movedPage('full_crc32-16384-p3', 5, i, 'full_crc32')));
}

const filesystems: [string, string[], number][] = [
  ['ext4', ['mkfs.ext4', '-q', '-F', '-b', '4096'], 64],
  ['xfs', ['mkfs.xfs', '-q', '-f'], 320],
];

for (const [name, mkfs, sizeMb] of filesystems) {
  t.test(`${name}: device ranges map to the pages that hold those bytes`, { skip }, async (t) => {
    const { image, mnt } = await mountedImage(t, mkfs, sizeMb);
    mkdirSync(join(mnt, 'data', 'db'), { recursive: true });
    const pages = uniquePages(24);
    // written in two steps with a spacer file between, so the table is in two extents
    writeFileSync(join(mnt, 'data', 'db', 't.ibd'), Buffer.concat(pages.slice(0, 12)));
    writeFileSync(join(mnt, 'data', 'spacer'), Buffer.alloc(1 << 20, 0x5a));
    await execa('sync', ['-f', mnt]); // its own filesystem: a global sync waits on any disk another file holds at a cut
    writeFileSync(join(mnt, 'data', 'db', 't.ibd'), Buffer.concat(pages.slice(12)), { flag: 'a' });
    writeFileSync(join(mnt, 'data', 'ib_logfile0'), Buffer.alloc(65536, 0x77));
    await execa('sync', ['-f', mnt]);

    const map = await buildExtentMap(mnt, 'data');
    const table = map.files.find((f) => f.rel === './db/t.ibd')!;
    t.equal(table.pageSize, 16384);
    t.ok(table.extents.length >= 2, `t.ibd has ${table.extents.length} extents`);
    const raw = readFileSync(image);
    for (const [i, page] of pages.entries()) {
      const at = raw.indexOf(page);
      t.ok(at > 0, `page ${i} found in the image`);
      t.same(mapRangeToPages(map, at, 16384).map((h) => [h.file, h.page, h.pageOffset, h.length]),
        [['./db/t.ibd', i, 0, 16384]], `page ${i} at device offset ${at}`);
    }
    const at5 = raw.indexOf(pages[5]!);
    t.same(mapRangeToPages(map, at5 + 4096, 4096).map((h) => [h.page, h.pageOffset, h.length]), [[5, 4096, 4096]],
      'one 4 KiB unit inside a page');
    const log = map.files.find((f) => f.rel === './ib_logfile0')!;
    t.same(mapRangeToPages(map, log.extents[0]!.physical + 512, 512).map((h) => [h.file, h.page, h.pageOffset]),
      [['./ib_logfile0', null, 512]]);
  });
}

// A tablespace created moments before a cut can have pages on the disk and page 0 still all zeros
// (the server writes page 0 when its buffer pool flushes it): flags of 0 say 16 KiB, which is not
// this datadir's page size. The server gave the file the system tablespace's.
t.test('ext4: a tablespace whose page 0 holds only zeros is mapped in the system tablespace page size', { skip }, async (t) => {
  const ps = 65536;
  const { mnt } = await mountedImage(t, ['mkfs.ext4', '-q', '-F', '-b', '4096'], 64);
  mkdirSync(join(mnt, 'data', 'db'), { recursive: true });
  writeFileSync(join(mnt, 'data', 'ibdata1'), tablespaceBytes(ps, new Map([[0, movedPage('full_crc32-65536-p0', 0, 0, 'full_crc32')]]), 4));
  writeFileSync(join(mnt, 'data', 'db', 'new.ibd'), tablespaceBytes(ps, new Map([[1, movedPage('full_crc32-65536-p3', 32, 1, 'full_crc32')]]), 4));
  await execa('sync', ['-f', mnt]);
  const map = await buildExtentMap(mnt, 'data');
  t.equal(map.files.find((f) => f.rel === './ibdata1')!.pageSize, ps);
  const file = map.files.find((f) => f.rel === './db/new.ibd')!;
  t.equal(file.pageSize, ps);
  const second = file.extents.find((e) => e.logical <= ps && e.logical + e.length > ps)!;
  const at = second.physical + (ps - second.logical);
  t.same(mapRangeToPages(map, at, ps).map((h) => [h.page, h.pageOffset, h.length]), [[1, 0, ps]], 'page 1 maps whole');
  const ageMs = Date.now() - file.bornUs! / 1000;
  t.ok(ageMs >= 0 && ageMs < 60_000, `ext4 keeps each file's birth time (${ageMs.toFixed(0)} ms ago)`);
});

t.test('a datadir that is not there is bad input', async (t) => {
  await t.rejects(buildExtentMap('/nonexistent', 'data'), { code: 'bad-input' });
});
