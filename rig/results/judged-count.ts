/**
 * What a run judged, in its modes' own words: a live cycle is one crash state of its own load run,
 * and an explore cycle judges many states of one recording (docs/guide/explore.md), each kept as a
 * cycle record. The end of `rig campaign` and `rig explore`, and the report's figures, say which
 * they counted.
 */
import type { CycleRecord } from './types.js';

/** "9 cycles", "150 states of 3 recordings", or both for a campaign with both modes. */
export function judgedText(records: readonly Pick<CycleRecord, 'explore'>[]): string {
  const states = records.filter((r) => r.explore);
  const live = records.length - states.length;
  const recordings = new Set(states.map((r) => r.explore!.run)).size;
  const parts: string[] = [];
  if (live || !states.length) parts.push(plural(live, 'cycle'));
  if (states.length) parts.push(`${plural(states.length, 'state')} of ${plural(recordings, 'recording')}`);
  return parts.join(', ');
}

/** What judgedText counted, as one noun for a rate or a total: a record's or a brief's `explore`. */
export function judgedUnit(records: readonly { explore?: unknown }[]): 'cycles' | 'states' | 'cycles and states' {
  const states = records.filter((r) => r.explore).length;
  if (!states) return 'cycles';
  return states === records.length ? 'states' : 'cycles and states';
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
