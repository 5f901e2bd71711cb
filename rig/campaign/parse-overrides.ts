/** The command-line overrides of a campaign: `--cycles N`, `--seed S` and `--lanes N`. */
import { badInput } from '../errors.js';
import { MAX_LANES } from '../explore/lane-growth.js';

export function parseCyclesOption(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 100_000) {
    throw badInput(`--cycles: '${text}' is not a cycle count; use a whole number from 1 to 100000`);
  }
  return n;
}

export function parseSeedOption(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) {
    throw badInput(`--seed: '${text}' is not a seed; use a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
  }
  return n;
}

export { MAX_LANES };

export function parseLanesOption(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > MAX_LANES) {
    throw badInput(`--lanes: '${text}' is not a number of states to judge at once; use a whole number from 1 to ${MAX_LANES}`);
  }
  return n;
}
