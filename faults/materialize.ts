/**
 * Writes the crash image: the image as it stood at the cut, with every pending write rolled back
 * (newest first, restoring the bytes it overwrote), then the units the plan lets land written again
 * in arrival order, so later writes win where both land. Same image, journal and plan: the same
 * bytes, and the sha256 says so.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { execa } from 'execa';
import { diskFailure } from './disk-error.js';
import type { CrashPlan } from './crash-plan.js';
import { unitSpan } from './crash-plan.js';
import type { JournalEntry } from './journal.js';

export function checkPlanFits(journal: JournalEntry[], plan: CrashPlan): void {
  const fits =
    journal.length === plan.writes.length &&
    journal.every((e, i) => {
      const w = plan.writes[i]!;
      return w.seq === e.seq && w.offset === e.offset && w.length === e.length;
    });
  if (!fits) throw diskFailure('the plan does not describe this journal (writes differ); rebuild the plan from it');
}

export async function applyPlan(imagePath: string, journal: JournalEntry[], plan: CrashPlan): Promise<void> {
  checkPlanFits(journal, plan);
  const unit = plan.atomicUnit;
  const fh = await open(imagePath, 'r+');
  try {
    for (let i = journal.length - 1; i >= 0; i--) {
      const e = journal[i]!;
      await fh.write(e.old, 0, e.length, e.offset);
    }
    for (let i = 0; i < journal.length; i++) {
      const e = journal[i]!;
      const { first } = unitSpan(e.offset, e.length, unit);
      for (const u of plan.writes[i]!.unitsLanded) {
        const from = Math.max(e.offset, (first + u) * unit);
        const to = Math.min(e.offset + e.length, (first + u + 1) * unit);
        await fh.write(e.new, from - e.offset, to - from, from);
      }
    }
  } finally {
    await fh.close();
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(8 * 1024 * 1024);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

/** Copies the image at the cut to `out` (sparsely), applies the plan there, returns its sha256. */
export async function materializeCrashImage(
  imageAtCut: string,
  journal: JournalEntry[],
  plan: CrashPlan,
  out: string,
): Promise<string> {
  await execa('cp', ['--sparse=always', imageAtCut, out]);
  await applyPlan(out, journal, plan);
  return sha256File(out);
}
