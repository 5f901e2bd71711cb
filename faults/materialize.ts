/**
 * Writes the crash image: the image as it stood at the cut, with every pending write rolled back
 * (newest first, restoring the bytes it overwrote), then the units the plan lets land written again
 * in arrival order, so later writes win where both land. Same image, journal and plan: the same
 * bytes, and the sha256 says so (computed beside the copy from the image at the cut).
 */
import { createHash } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { execa } from 'execa';
import { diskFailure } from './disk-error.js';
import type { CrashPlan } from './crash-plan.js';
import { unitSpan } from './crash-plan.js';
import type { JournalEntry } from './journal.js';
import { sha256WithOverlay, type Overlay } from './overlay-sha256.js';

export function checkPlanFits(journal: JournalEntry[], plan: CrashPlan): void {
  const fits =
    journal.length === plan.writes.length &&
    journal.every((e, i) => {
      const w = plan.writes[i]!;
      return w.seq === e.seq && w.offset === e.offset && w.length === e.length;
    });
  if (!fits) throw diskFailure('the plan does not describe this journal (writes differ); rebuild the plan from it');
}

/**
 * The writes that make the crash image from the image at the cut, in order: each pending write's
 * old bytes, newest first, then the units the plan lets land (landedWrites).
 */
export function planWrites(journal: JournalEntry[], plan: CrashPlan): Overlay[] {
  checkPlanFits(journal, plan);
  const rolledBack = journal.map((e) => ({ offset: e.offset, data: e.old.subarray(0, e.length) })).reverse();
  return [...rolledBack, ...landedWrites(journal, plan)];
}

/** The units a plan lets land, each a piece of its write's new bytes, in arrival order (later writes win). */
export function landedWrites(journal: JournalEntry[], plan: CrashPlan): Overlay[] {
  const unit = plan.atomicUnit;
  const pieces: Overlay[] = [];
  journal.forEach((e, i) => {
    const { first } = unitSpan(e.offset, e.length, unit);
    for (const u of plan.writes[i]!.unitsLanded) {
      const from = Math.max(e.offset, (first + u) * unit);
      const to = Math.min(e.offset + e.length, (first + u + 1) * unit);
      pieces.push({ offset: from, data: e.new.subarray(from - e.offset, to - e.offset) });
    }
  });
  return pieces;
}

export async function applyPlan(imagePath: string, journal: JournalEntry[], plan: CrashPlan): Promise<void> {
  await applyWrites(imagePath, planWrites(journal, plan));
}

async function applyWrites(imagePath: string, writes: Overlay[]): Promise<void> {
  const fh = await open(imagePath, 'r+');
  try {
    for (const w of writes) await fh.write(w.data, 0, w.data.byteLength, w.offset);
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
  return (await writeCrashImage(imageAtCut, journal, plan, out)).sha256;
}

/**
 * The same, returning once the crash image is written: its sha256 settles later, computed from the
 * image at the cut with the plan's writes laid over it (./overlay-sha256.ts), which must not change
 * until it has. The crash image itself may be mounted meanwhile (a mount writes to it).
 */
export async function writeCrashImage(
  imageAtCut: string,
  journal: JournalEntry[],
  plan: CrashPlan,
  out: string,
): Promise<{ sha256: Promise<string> }> {
  const writes = planWrites(journal, plan);
  const sha256 = sha256WithOverlay(imageAtCut, writes);
  sha256.catch(() => undefined); // awaited by the caller; a failure before then is not unhandled
  // built beside its name and renamed whole, so a process killed partway leaves no half-built
  // image under the name a reader trusts
  const partial = `${out}.partial`;
  try {
    await execa('cp', ['--sparse=always', imageAtCut, partial]);
    await applyWrites(partial, writes);
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    await sha256.catch(() => undefined); // nothing reads the image at the cut once this returns
    throw error;
  }
  return { sha256 };
}
