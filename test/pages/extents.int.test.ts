/**
 * Extents read through pfmount's FIEMAP are those e2fsprogs' filefrag reports for the same files,
 * on ext4 and xfs: holes, unwritten (preallocated) extents, files that grew interleaved with
 * another (many extents), an empty file.
 */
import t from 'tap';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { sweepDisks } from '../../faults/sweep-disks.js';
import { freshFsDisk } from '../fixtures/fresh-fs-disk.js';
import { parseFilefrag, readExtents } from '../../rig/pages/filefrag.js';

const work = mkdtempSync(join(tmpdir(), 'rig-extents-'));
const registryDir = join(work, 'registry');
t.teardown(async () => {
  await sweepDisks({ registryDir });
  rmSync(work, { recursive: true, force: true });
});

async function filesOn(mnt: string): Promise<string[]> {
  const paths = ['holes', 'preallocated', 'a', 'b', 'empty'].map((n) => join(mnt, n));
  const [holes, , a, b, empty] = paths.map((p) => openSync(p!, 'w'));
  for (let i = 0; i < 64; i += 3) writeSync(holes!, Buffer.alloc(8192, i), 0, 8192, i * 65536);
  await execa('fallocate', ['-l', String(4 << 20), paths[1]!]);
  await execa('dd', ['if=/dev/urandom', `of=${paths[1]}`, 'bs=64K', 'count=4', 'seek=10', 'conv=notrunc'], { stderr: 'ignore' });
  for (let i = 0; i < 200; i++) {
    writeSync(a!, Buffer.alloc(4096, i), 0, 4096, i * 4096);
    writeSync(b!, Buffer.alloc(4096, i), 0, 4096, i * 4096);
    if (i % 50 === 0) await execa('sync');
  }
  for (const fd of [holes, a, b, empty]) closeSync(fd!);
  await execa('sync');
  return paths;
}

for (const fs of ['ext4', 'xfs'] as const) {
  t.test(`${fs}: the extents filefrag reports`, async (t) => {
    const disk = await freshFsDisk(t, work, registryDir, fs);
    const paths = await filesOn(disk.target);
    const read = await readExtents(paths);
    const reference = parseFilefrag((await execa('filefrag', ['-e', '-v', '-b512', ...paths])).stdout);
    for (const p of paths) t.same(read.get(p), reference.get(p), `${p.split('/').pop()}: ${read.get(p)?.length} extents, as filefrag says`);
    t.ok((read.get(paths[1]!) ?? []).some((e) => e.unwritten), 'preallocated blocks read as unwritten');
    t.ok((read.get(paths[2]!) ?? []).length > 1, `a file grown beside another is in ${read.get(paths[2]!)?.length} extents`);
    t.same(read.get(paths[4]!), [], 'an empty file has none');
    await t.rejects(readExtents([join(disk.target, 'missing')]), /the extents of .*missing could not be read: open .*missing: No such file or directory/);
  });
}
