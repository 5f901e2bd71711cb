/**
 * `load.mix` in a campaign file, and `--mix` on the command line: which kinds of step the builtin
 * load runs, and how often. Three spellings of one thing:
 *   [write-only, churn]               every kind named runs equally often
 *   {write-only: 4, churn: 1}         weights (0 or more; at least one above 0)
 *   'write-only=4,churn=1'            the command-line form ('write-only,churn' for equal weights)
 */

import { LOAD_KINDS, type LoadKind, type LoadMix } from '../results/load-kinds.js';
import { accept, oneOf, reject, show, type Checked } from '../../faults/checked.js';
import { closestKey } from './issue-message.js';

const EXAMPLE = 'e.g. [write-only, churn] or {write-only: 4, churn: 1}';

function kindOf(name: unknown): Checked<LoadKind> {
  if (typeof name === 'string' && (LOAD_KINDS as readonly string[]).includes(name)) return accept(name as LoadKind);
  const guess = typeof name === 'string' ? closestKey(name, [...LOAD_KINDS]) : null;
  return reject(`${show(name)} is not a load kind; ${guess ? `did you mean ${guess}? ` : ''}use ${oneOf(LOAD_KINDS)}`);
}

function fromWeights(entries: Array<[unknown, unknown]>): Checked<LoadMix> {
  if (entries.length === 0) return reject(`an empty mix runs nothing; name at least one kind, ${EXAMPLE}`);
  const mix: LoadMix = {};
  for (const [name, weight] of entries) {
    const kind = kindOf(name);
    if (!kind.ok) return kind;
    if (mix[kind.value] !== undefined) return reject(`${kind.value} is named twice; name each kind once, ${EXAMPLE}`);
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      return reject(`${kind.value}: ${show(weight)} is not a weight; use a number of 0 or more, ${EXAMPLE}`);
    }
    mix[kind.value] = weight;
  }
  if (Object.values(mix).every((w) => w === 0)) return reject('every weight is 0, so nothing would run; give at least one kind a weight above 0');
  return accept(mix);
}

/** 'write-only=4,churn=1' or 'write-only,churn' as [name, weight] pairs (a weight that is not a number stays text). */
function textEntries(text: string): Array<[unknown, unknown]> {
  return text.split(',').map((s) => s.trim()).filter(Boolean).map((part): [unknown, unknown] => {
    const at = part.indexOf('=');
    if (at < 0) return [part, 1];
    const weight = part.slice(at + 1).trim();
    return [part.slice(0, at).trim(), weight !== '' && Number.isFinite(Number(weight)) ? Number(weight) : weight];
  });
}

export function checkLoadMix(value: unknown): Checked<LoadMix> {
  if (typeof value === 'string') return fromWeights(textEntries(value));
  if (Array.isArray(value)) return fromWeights(value.map((name): [unknown, unknown] => [name, 1]));
  if (value !== null && typeof value === 'object') return fromWeights(Object.entries(value));
  return reject(`${show(value)} is not a mix; use a list of kinds or weights, ${EXAMPLE}`);
}
