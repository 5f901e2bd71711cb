/**
 * The settings of one `rig vm run`, checked, with their defaults. The guest's CPUs are host
 * threads under TCG: two, as the recipe measured, unless the host has fewer to give.
 */
import { accept, reject, show, type Checked } from '../../faults/checked.js';
import { checkSize } from '../../faults/sizes.js';

export const VM_DEFAULTS = { memory: '1G', timeoutS: 600, cpus: 2 } as const;
const MIN_MEMORY = 256 * 1024 * 1024;

/** Memory for the guest, in MiB (qemu's -m); at least 256M, the host's node needs room. */
export function checkMemory(value: unknown): Checked<number> {
  const bytes = checkSize(value, MIN_MEMORY, '2G');
  if (!bytes.ok) return bytes;
  if (bytes.value % (1024 * 1024) !== 0) return reject(`${show(value)} is not a whole number of MiB; write it like 1536M`);
  return accept(bytes.value / (1024 * 1024));
}

/** A whole number from 1 to `max`, as a flag gives it ('600'). */
export function checkWhole(value: unknown, max: number, what: string): Checked<number> {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!(n >= 1 && n <= max)) return reject(`${show(value)} is not ${what}; use a whole number from 1 to ${max}`);
  return accept(n);
}
