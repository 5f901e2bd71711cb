/** A flag's value once checked, or bad input (exit 2) naming the flag: `--atomic: 12k is not ...`. */
import type { Checked } from '../../faults/checked.js';
import { badInput } from '../errors.js';

export function flagValue<T>(flag: string, checked: Checked<T>): T {
  if (!checked.ok) throw badInput(`${flag}: ${checked.problem}`);
  return checked.value;
}
