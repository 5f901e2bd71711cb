/**
 * A folder a command will make or write into, named by a flag: it, or the nearest of its parents
 * that exists, must be a folder. Checked before anything runs, so a file named by mistake is a
 * one-line error at the start instead of a failure minutes in (perf writes perf.json only once its
 * pairs have run) or an internal error from mkdir.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { badInput } from './errors.js';

export function checkFolderPath(flag: string, given: string, holds: string): void {
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
