/**
 * Turns a zod issue into the one line a campaign error shows: `key.path: what was wrong; the fix`.
 * Messages set on the schema (field parsers, names, unknown keys) are used as they are.
 */
import type { z } from 'zod';
import { oneOf, show } from '../../faults/checked.js';

type Issue = z.core.$ZodIssue;

/** ['scenarios', 2, 'disk', 'atomic'] -> scenarios[2].disk.atomic */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text || '(top level)';
}

/** The path an issue is about: for an unknown key, the key itself. */
export function issuePath(issue: Issue): PropertyKey[] {
  return issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : [...issue.path];
}

/** The message for issues whose schema set none: passed to zod's parse as its error map. */
export function defaultMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type': {
      const noun = issue.expected === 'int' ? 'a whole number' : `${article(issue.expected)} ${issue.expected}`;
      if (input === undefined) return `missing; add it (${noun})`;
      return `${show(input)} is not ${noun}; write ${noun} here`;
    }
    case 'invalid_value':
      return `${show(input)} is not allowed here; use ${oneOf(issue.values.map(String))}`;
    case 'too_small':
      if (issue.origin === 'array') return `needs at least ${issue.minimum} entr${issue.minimum === 1 ? 'y' : 'ies'}`;
      if (issue.origin === 'string' && input === '') return `'' is empty; write one here`;
      return `${show(input)} is too small; use ${issue.inclusive === false ? 'more than' : 'at least'} ${issue.minimum}`;
    case 'too_big':
      return `${show(input)} is too large; use at most ${issue.maximum}`;
    default:
      return undefined;
  }
}

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? 'an' : 'a';
}

/** The key in `known` closest to `key` (by edit distance), if it is close enough to be a typo. */
export function closestKey(key: string, known: string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
