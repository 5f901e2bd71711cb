/**
 * The results folder of a fresh (not resumed) run or a merge: a new or empty folder, or the folder
 * of an earlier run, which the new run replaces. Any other non-empty folder is refused before
 * anything is created, so a mistyped --out never deletes someone's files.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkRunFolder } from '../folder-path.js';
import { cyclePagesFolder } from '../../reports/cycle-page.js';

const RUN_FILES = ['results.json', 'cycles.jsonl', 'junit.xml', 'index.html'];

/** `name`: how the command line names the folder (`--out` for a campaign, `OUT` for a merge). */
export function checkFreshOutFolder(dir: string, name = '--out', holds = 'the results'): void {
  checkRunFolder(dir, { flag: name, holds, marker: 'results.json', none: 'campaign results', earlier: "an earlier run's folder" });
}

/** Removes an earlier run's results and cycle folders (call after the leftover sweep). */
export function clearEarlierRun(dir: string): void {
  if (existsSync(join(dir, 'results.json'))) removeRunFiles(dir);
}

/** Removes what a run writes in its folder: only for a folder checkFreshOutFolder let through and
 * an earlier run's results cleared from, where whatever has these names is the run's own. */
export function removeRunFiles(dir: string): void {
  rmSync(join(dir, 'cycles'), { recursive: true, force: true });
  rmSync(join(dir, cyclePagesFolder('index.html')), { recursive: true, force: true });
  for (const file of RUN_FILES) rmSync(join(dir, file), { force: true });
}
