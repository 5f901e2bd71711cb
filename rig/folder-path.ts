/**
 * A folder a command will make or write into, named by a flag: it, or the nearest of its parents
 * that exists, must be a folder. Checked before anything runs, so a file named by mistake is a
 * one-line error at the start instead of a failure minutes in (perf writes perf.json only once its
 * pairs have run) or an internal error from mkdir.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { badInput } from './errors.js';

export function checkFolderPath(flag: string, given: string, holds: string): void {
  // resolve('') is the current folder, which nobody names by giving nothing
  if (given.trim() === '') throw badInput(`${flag} is empty; give a folder for ${holds}`);
  const path = resolve(given);
  let at = path;
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) return;
    at = up;
  }
  if (statSync(at).isDirectory()) return;
  const where = at === path ? 'is a file' : `is inside ${at}, which is a file`;
  throw badInput(`${flag} ${given} ${where}; give a folder for ${holds}`);
}

/** What a run's folder must be (checkRunFolder): `marker` is the file an earlier run left there,
 * `none` what a folder without it is said to hold no, `earlier` how the fix names such a folder. */
export interface RunFolderRule {
  flag: string;
  holds: string;
  marker: string;
  none: string;
  earlier: string;
}

/**
 * A folder a run writes its results into: new, empty, or an earlier run's (it holds the rule's
 * marker), which the new run replaces. Any other non-empty folder is refused before anything is
 * created, so a mistyped folder never has someone's files written over.
 */
export function checkRunFolder(given: string, rule: RunFolderRule): void {
  checkFolderPath(rule.flag, given, rule.holds);
  if (!existsSync(given) || readdirSync(given).length === 0 || existsSync(join(given, rule.marker))) return;
  throw badInput(`${rule.flag} ${given} is not empty and holds no ${rule.none}; give a new or empty folder, or ${rule.earlier}`);
}
