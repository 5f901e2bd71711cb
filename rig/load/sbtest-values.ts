/**
 * Values shaped like sysbench's oltp tables: c is 10 groups of 11 digits, pad 5 groups, joined by
 * dashes (119 and 59 characters, in CHAR(120) and CHAR(60)).
 */
import type { Rng } from '../../faults/prng.js';

function digitGroups(rng: Rng, groups: number): string {
  const parts: string[] = [];
  for (let g = 0; g < groups; g++) {
    let part = '';
    for (let i = 0; i < 11; i++) part += String(rng.int(10));
    parts.push(part);
  }
  return parts.join('-');
}

export const cValue = (rng: Rng): string => digitGroups(rng, 10);
export const padValue = (rng: Rng): string => digitGroups(rng, 5);

/** A uniformly chosen id in 1..rows. */
export const rowId = (rng: Rng, rows: number): number => 1 + rng.int(rows);

/** A uniformly chosen table name sbtest1..sbtestN. */
export const tableName = (rng: Rng, tables: number): string => `sbtest${1 + rng.int(tables)}`;
