/**
 * The results folder of a fresh (not resumed) run: a new or empty folder, or the folder of an
 * earlier campaign run, which the new run replaces. Any other non-empty folder is refused before
 * anything is created, so a mistyped --out never deletes someone's files.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { badInput } from '../errors.js';
import { checkFolderPath } from '../folder-path.js';
import { cyclePagesFolder } from '../../reports/cycle-page.js';

const RUN_FILES = ['results.json', 'cycles.jsonl', 'junit.xml', 'index.html'];

export function checkFreshOutFolder(dir: string): void {
  checkFolderPath('--out', dir, 'the results');
  if (!existsSync(dir)) return;
  if (readdirSync(dir).length === 0 || existsSync(join(dir, 'results.json'))) return;
  throw badInput(`--out ${dir} is not empty and holds no campaign results; give a new or empty folder, or an earlier campaign's folder`);
}

/** Removes an earlier run's results and cycle folders (call after the leftover sweep). */
export function clearEarlierRun(dir: string): void {
  if (!existsSync(join(dir, 'results.json'))) return;
  rmSync(join(dir, 'cycles'), { recursive: true, force: true });
  rmSync(join(dir, cyclePagesFolder('index.html')), { recursive: true, force: true });
  for (const file of RUN_FILES) rmSync(join(dir, file), { force: true });
}
