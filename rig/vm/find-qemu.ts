/** qemu-system-x86_64 on the host, or bad input naming the fix: the guest cannot run without it. */
import { execa } from 'execa';
import { badInput } from '../errors.js';

export const QEMU = 'qemu-system-x86_64';

export async function findQemu(): Promise<string> {
  const found = await execa('sh', ['-c', `command -v ${QEMU}`], { reject: false });
  if (found.exitCode !== 0) throw badInput(`${QEMU} not found: run \`make vm-setup\` (installs Debian's qemu-system-x86)`);
  return found.stdout.trim();
}
