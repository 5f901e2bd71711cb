/**
 * Every filesystem the disk makes, on the real stack at the smallest size the disk allows for it
 * (the size a campaign is checked against): it is made and mounted, and a file written on it
 * reads back. On xfs-extsize16k, what a datadir's files are made with is the 16 KiB hint.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { DATADIR_FILESYSTEMS, FILESYSTEMS } from '../../faults/filesystems.js';
import { startDisk } from '../../faults/start-disk.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const root = mkdtempSync(join(tmpdir(), 'rig-filesystems-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

for (const fs of DATADIR_FILESYSTEMS) {
  t.test(`${fs} on ${FILESYSTEMS[fs].minBytes / 2 ** 20} MiB`, async (t) => {
    const dir = join(root, fs);
    const disk = await startDisk({
      dir, fs, sizeBytes: FILESYSTEMS[fs].minBytes, atomicUnit: 4096, pageSize: 16384, journalMaxBytes: 256 << 20, model: LOCAL.device, trigger: null,
    });
    t.teardown(() => disk.down());
    const file = join(disk.target, 'data', 'db', 't.ibd');
    mkdirSync(join(disk.target, 'data', 'db'), { recursive: true });
    writeFileSync(file, Buffer.alloc(3 * 16384, 0x5a));
    t.equal(readFileSync(file).length, 3 * 16384);
    if (fs === 'xfs-extsize16k') {
      const { stdout } = await execa('xfs_io', ['-c', 'extsize', join(disk.target, 'data'), file]);
      t.same(stdout.trim().split('\n').map((l) => l.split(' ')[0]), ['[16384]', '[16384]'], 'the datadir and its files carry the hint');
    }
  });
}
