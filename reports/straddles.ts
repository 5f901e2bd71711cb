/**
 * The straddling page writes of cycles, by what they wrote (rig/cycle/straddle-targets.ts). Only a
 * tablespace page that straddles can tear a page on a page-atomic disk, so only those (and writes
 * a record cannot name) count as bad; a redo log or filesystem write that straddles is named, not
 * flagged. Records saved before the rig mapped straddles name nothing: all of theirs count as unnamed.
 */
import type { CycleRecord, StraddleTargets } from '../rig/results/types.js';
import { formatCount } from './format.js';

const NAMES: [keyof StraddleTargets, string][] = [
  ['tablespace', 'tablespace page'],
  ['redo', 'redo log'],
  ['other', 'other file'],
  ['filesystem', 'filesystem (no datadir file)'],
  ['unlisted', 'not listed'],
];

export interface StraddleTally {
  total: number;
  targets: StraddleTargets;
  unnamed: number; // straddles of records that carry no mapping
}

/** What a tally reads of a cycle: its record's cut, or its brief's. */
export interface StraddleSource {
  cut: { stats: { pageWritesStraddling?: number }; straddled?: StraddleTargets } | null;
}

export function tallyStraddles(cycles: readonly StraddleSource[]): StraddleTally {
  const targets: StraddleTargets = { tablespace: 0, redo: 0, other: 0, filesystem: 0, unlisted: 0 };
  let total = 0;
  let unnamed = 0;
  for (const c of cycles) {
    const n = c.cut?.stats.pageWritesStraddling ?? 0;
    total += n;
    const mapped = c.cut?.straddled;
    if (!mapped) unnamed += n;
    else for (const [key] of NAMES) targets[key] += mapped[key];
  }
  return { total, targets, unnamed };
}

/** Whether a straddle could have torn a tablespace page: a tablespace write, or one nobody named. */
export function straddleIsBad(t: StraddleTally): boolean {
  return t.targets.tablespace + t.targets.unlisted + t.unnamed > 0;
}

/** "redo log 1, filesystem (no datadir file) 2", or '' when none is named. */
export function describeStraddleTargets(t: StraddleTally): string {
  return NAMES.filter(([key]) => t.targets[key] > 0).map(([key, name]) => `${name} ${formatCount(t.targets[key])}`).join(', ');
}
