/**
 * The filesystems the disk can carry, and how each is made. Which of them keep InnoDB pages
 * 16 KiB-aligned on the device is the point of the torn-pages campaign (see README).
 */
import type { FsKind } from '../rig/results/types.js';

export interface FilesystemRecipe {
  mkfs: string | null; // the tool; null for the raw device
  args: string[]; // before the device path
  minBytes: number;
  describe: string;
}

const MiB = 1024 * 1024;
// ext4 initialises its inode tables and journal at mkfs time, so no lazy-init writes land in the
// middle of a test and muddy the journal of pending writes.
const EXT4 = ['-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0'];

export const FILESYSTEMS: Record<FsKind, FilesystemRecipe> = {
  'ext4': { mkfs: 'mkfs.ext4', args: EXT4, minBytes: 32 * MiB, describe: 'ext4, 4 KiB blocks' },
  'ext4-bigalloc16k': {
    mkfs: 'mkfs.ext4',
    args: [...EXT4, '-O', 'bigalloc', '-C', '16384'],
    minBytes: 64 * MiB,
    describe: 'ext4 with bigalloc 16 KiB clusters',
  },
  'xfs': { mkfs: 'mkfs.xfs', args: ['-q', '-f'], minBytes: 320 * MiB, describe: 'xfs, 4 KiB blocks' },
  'xfs-su16k': {
    mkfs: 'mkfs.xfs',
    args: ['-q', '-f', '-d', 'su=16k,sw=1'],
    minBytes: 320 * MiB,
    describe: 'xfs with a 16 KiB stripe unit',
  },
  'xfs-bs16k': {
    mkfs: 'mkfs.xfs',
    args: ['-q', '-f', '-b', 'size=16384'],
    minBytes: 320 * MiB,
    describe: 'xfs with 16 KiB blocks',
  },
  'none': { mkfs: null, args: [], minBytes: 1 * MiB, describe: 'the raw loop device' },
};

export const FS_KINDS = Object.keys(FILESYSTEMS) as FsKind[];

export function isFsKind(value: string): value is FsKind {
  return Object.hasOwn(FILESYSTEMS, value);
}
