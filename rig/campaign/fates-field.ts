/**
 * `disk.fates` in a campaign file, and `--fates` on the command line: the weights each pending
 * write's fate is drawn with at the cut (faults/crash-plan.ts). A fate not named weighs 0.
 *   {tear: 1}             every write that spans two atomic units or more tears
 *   'land=2,drop=1'       the command-line form
 */
import { accept, reject, show, type Checked } from '../../faults/checked.js';
import type { FatePolicy } from '../../faults/crash-plan.js';
import { closestKey } from './issue-message.js';

const FATES = ['land', 'drop', 'tear'] as const;
const EXAMPLE = "e.g. {tear: 1} or 'land=2,drop=1'";

function fromWeights(entries: Array<[string, unknown]>): Checked<FatePolicy> {
  const policy: FatePolicy = { land: 0, drop: 0, tear: 0 };
  const seen = new Set<string>();
  for (const [name, weight] of entries) {
    if (!(FATES as readonly string[]).includes(name)) {
      const guess = closestKey(name, [...FATES]);
      return reject(`${show(name)} is not a fate; ${guess ? `did you mean ${guess}? ` : ''}use land, drop or tear, ${EXAMPLE}`);
    }
    if (seen.has(name)) return reject(`${name} is named twice; name each fate once, ${EXAMPLE}`);
    seen.add(name);
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) return reject(`${name}: ${show(weight)} is not a weight; use a number of 0 or more, ${EXAMPLE}`);
    policy[name as keyof FatePolicy] = weight;
  }
  if (policy.land + policy.drop + policy.tear === 0) return reject(`every fate weighs 0; give one a weight above 0, ${EXAMPLE}`);
  return accept(policy);
}

export function checkFates(value: unknown): Checked<FatePolicy> {
  if (typeof value === 'string') {
    const entries = value.split(',').map((s) => s.trim()).filter(Boolean).map((part): [string, unknown] => {
      const [name, weight = ''] = part.split('=').map((s) => s.trim());
      return [name!, weight !== '' && Number.isFinite(Number(weight)) ? Number(weight) : weight];
    });
    return fromWeights(entries);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return fromWeights(Object.entries(value));
  return reject(`${show(value)} is not a set of fate weights; ${EXAMPLE}`);
}
