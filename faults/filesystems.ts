/**
 * The filesystems the disk can carry, and how each is made. Which of them keep InnoDB pages
 * 16 KiB-aligned on the device is the point of the torn-pages campaign (docs/guide/disk.md).
 */
import { ATOMIC_UNITS, showSize } from './sizes.js';

export interface FilesystemRecipe {
  mkfs: string | null; // the tool; null for the raw device
  args: string[]; // before the device path
  minBytes: number; // the smallest disk it is made on (a campaign checks this before any cycle)
  label: string; // short, for report headings
}

/** The filesystems by name: a list of its own, not FILESYSTEMS' keys, because the generator of the
 * results' JSON Schema (scripts/results-schema.mjs) reads types from their syntax and cannot take
 * the keys of an object built from variables. FILESYSTEMS' `satisfies` keeps the two one set. */
export const FS_KINDS = ['ext4', 'ext4-bigalloc16k', 'xfs', 'xfs-extsize16k', 'xfs-su16k', 'xfs-bs16k', 'none'] as const;
export type FsKind = (typeof FS_KINDS)[number];

const MiB = 1024 * 1024;
/** The disk's size is a whole number of the largest atomic unit, so every unit of it is whole. */
export const SIZE_STEP_BYTES = Math.max(...ATOMIC_UNITS);
// ext4 initialises its inode tables and journal at mkfs time, so no lazy-init writes land in the
// middle of a test and muddy the journal of pending writes.
const EXT4 = ['-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0'];

export const FILESYSTEMS = {
  'ext4': { mkfs: 'mkfs.ext4', args: EXT4, minBytes: 32 * MiB, label: 'ext4' },
  'ext4-bigalloc16k': {
    mkfs: 'mkfs.ext4',
    args: [...EXT4, '-O', 'bigalloc', '-C', '16384'],
    minBytes: 64 * MiB,
    label: 'ext4 bigalloc 16k',
  },
  // mkfs.xfs (xfsprogs 5.19 and later) makes no filesystem below 300 MiB; with a 16 KiB stripe unit
  // (xfsprogs 6.1) none below 512 MiB + 320 KiB, where its log first reaches the 64 MiB it needs.
  'xfs': { mkfs: 'mkfs.xfs', args: ['-q', '-f'], minBytes: 300 * MiB, label: 'xfs' },
  // An extent-size hint of 4 blocks (16 KiB) on the root, inherited by every folder and file made
  // below it: allocations come in 16 KiB sizes, but not at 16 KiB-aligned places.
  'xfs-extsize16k': {
    mkfs: 'mkfs.xfs',
    args: ['-q', '-f', '-d', 'extszinherit=4'],
    minBytes: 300 * MiB,
    label: 'xfs extsize 16k',
  },
  'xfs-su16k': {
    mkfs: 'mkfs.xfs',
    args: ['-q', '-f', '-d', 'su=16k,sw=1'],
    minBytes: 513 * MiB,
    label: 'xfs su=16k',
  },
  'xfs-bs16k': {
    mkfs: 'mkfs.xfs',
    args: ['-q', '-f', '-b', 'size=16384'],
    minBytes: 300 * MiB,
    label: 'xfs 16k blocks',
  },
  'none': { mkfs: null, args: [], minBytes: 1 * MiB, label: 'raw device' },
} satisfies Record<FsKind, FilesystemRecipe>;

/** The filesystems a server's datadir can live on: every one but the raw device. */
export const DATADIR_FILESYSTEMS = FS_KINDS.filter((fs) => FILESYSTEMS[fs].mkfs !== null) as [FsKind, ...FsKind[]];

export function isFsKind(value: string): value is FsKind {
  return Object.hasOwn(FILESYSTEMS, value);
}

/** Why a disk of this size cannot carry the filesystem (one line, with the fix), or null. */
export function diskSizeProblem(fs: FsKind, sizeBytes: number): string | null {
  const min: number = FILESYSTEMS[fs].minBytes;
  if (sizeBytes < min) return `${showSize(sizeBytes)} is too small for ${fs}; use ${showSize(min)} or more`;
  if (sizeBytes % SIZE_STEP_BYTES !== 0) {
    return `${sizeBytes} is not a multiple of ${showSize(SIZE_STEP_BYTES)}; round it up to ${showSize(Math.ceil(sizeBytes / SIZE_STEP_BYTES) * SIZE_STEP_BYTES)}`;
  }
  return null;
}
