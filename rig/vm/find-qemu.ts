/** qemu-system-x86_64 on the PATH, or bad input naming the fix: the guest cannot run without it. */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { badInput } from '../errors.js';

export const QEMU = 'qemu-system-x86_64';

/** The first executable `name` in the PATH's folders, or null. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(':').filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}

export function findQemu(): string {
  const found = findOnPath(QEMU);
  if (!found) throw badInput(`${QEMU} not found: run \`make vm-setup\` (installs Debian's qemu-system-x86)`);
  return found;
}
