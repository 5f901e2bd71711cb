/** Where the rig's own files are, whether it runs from source (tests) or from dist/. The helper's
 * path is the disk's own (faults/disk-environment.ts). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('powercut-rig: package.json not found above ' + import.meta.url);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot();
