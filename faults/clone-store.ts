/**
 * A folder whose files copy in constant time: an XFS filesystem with reflinks on a loop disk
 * (./loop-disk.ts) over a sparse file the rig makes. A copy (a clone) shares every block with its
 * source until one of them writes it, so a crash image cloned from a clean copy costs only what
 * is written to it, and deleting it afterwards leaves the clean copy as it was: nothing has to be
 * put back.
 */
import { constants, copyFileSync, closeSync, existsSync, mkdirSync, openSync, rmSync, statfsSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { diskFailure } from './disk-error.js';
import type { DiskEnvironment } from './disk-environment.js';
import { commandExists } from './system.js';
import { startLoopDisk, type LoopDisk } from './loop-disk.js';

export class CloneStore {
  private constructor(private readonly disk: LoopDisk, private readonly dir: string) {}

  /**
   * Makes the store in `dir` (which must not exist yet, or be empty of disks): a sparse file of
   * `sizeBytes` (it takes on disk only what is written), formatted and mounted. Throws a disk
   * failure naming the reason when this machine cannot clone files (no mkfs.xfs, no XFS in the kernel).
   */
  static async open(dir: string, sizeBytes: number, opts: { environment?: DiskEnvironment; signal?: AbortSignal } = {}): Promise<CloneStore> {
    if (!(await commandExists('mkfs.xfs'))) throw diskFailure('mkfs.xfs is not installed (apt-get install xfsprogs)');
    const root = resolve(dir);
    mkdirSync(root, { recursive: true });
    const image = join(root, 'store.img');
    closeSync(openSync(image, 'w'));
    truncateSync(image, sizeBytes);
    let disk: LoopDisk;
    try {
      disk = await startLoopDisk({ dir: join(root, 'disk'), image, fs: 'xfs', format: { extraArgs: ['-m', 'reflink=1'] }, ...opts });
    } catch (error) {
      rmSync(root, { recursive: true, force: true });
      throw error;
    }
    const store = new CloneStore(disk, root);
    try {
      const probe = join(disk.target, 'probe');
      writeFileSync(probe, 'x');
      store.clone(probe, `${probe}-clone`);
    } catch (error) {
      await store.close();
      throw diskFailure(`files cannot be cloned on ${disk.target}: ${(error as Error).message}`);
    }
    return store;
  }

  /** The folder to keep files in. */
  get root(): string {
    return this.disk.target;
  }

  /** Copies `from` (in the store) to `to` (in the store), sharing its blocks. */
  clone(from: string, to: string): void {
    copyFileSync(from, to, constants.COPYFILE_FICLONE_FORCE);
  }

  /** What its files take on disk now (shared blocks once), bytes. */
  usedBytes(): number {
    const s = statfsSync(this.disk.target);
    return (s.blocks - s.bfree) * s.bsize;
  }

  /** Takes the store down and removes it, files and all. */
  async close(): Promise<void> {
    const report = await this.disk.down();
    if (report.problems.length) throw diskFailure(`the clone store in ${this.dir} did not come down: ${report.problems.join('; ')}`);
    if (existsSync(this.dir)) rmSync(this.dir, { recursive: true, force: true });
  }
}
