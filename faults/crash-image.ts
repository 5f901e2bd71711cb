/**
 * From what a cut disk left in its folder (the image at the cut and the journal dump), decide a plan
 * from the seed and write DIR/crash.img and DIR/plan.json; the crash image's sha256 follows. `rebuildCrashImage` does the same from a
 * saved plan, for repro.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePlan, type CrashPlan, type FatePolicy } from './crash-plan.js';
import { loadJournal } from './journal.js';
import { materializeCrashImage, writeCrashImage } from './materialize.js';

/** The crash image's name in the cut's folder. */
export const CRASH_IMAGE_FILE = 'crash.img';

export interface CrashImage {
  path: string;
  planPath: string;
  plan: CrashPlan;
  /** Settles once hashed from the image at the cut, which must stay as it is until then. */
  sha256: Promise<string>;
}

export async function buildCrashImage(
  dir: string,
  seed: number,
  atomicUnit: number,
  policy?: FatePolicy,
): Promise<CrashImage> {
  const journal = loadJournal(join(dir, 'journal.bin'));
  const plan = makePlan(journal, seed, atomicUnit, policy);
  const planPath = join(dir, 'plan.json');
  writeFileSync(planPath + '.tmp', JSON.stringify(plan, null, 1) + '\n');
  renameSync(planPath + '.tmp', planPath);
  const path = join(dir, CRASH_IMAGE_FILE);
  const { sha256 } = await writeCrashImage(join(dir, 'image.img'), journal, plan, path);
  return { path, planPath, plan, sha256 };
}

export async function rebuildCrashImage(
  imageAtCut: string,
  journalPath: string,
  planPath: string,
  out: string,
): Promise<string> {
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as CrashPlan;
  return materializeCrashImage(imageAtCut, loadJournal(journalPath), plan, out);
}
