/**
 * Stage 4, materialize: a seeded plan decides each pending write's fate and the crash image is
 * written beside the image at the cut (faults/crash-image.ts); the journal is read back for the
 * truth the scan stage derives from it.
 */
import { join } from 'node:path';
import { buildCrashImage, type CrashImage } from '../../../faults/crash-image.js';
import { loadJournal, type JournalEntry } from '../../../faults/journal.js';

export interface Materialized {
  crash: CrashImage;
  journal: JournalEntry[];
}

export async function materialize(cutDir: string, seed: number, atomicUnit: number): Promise<Materialized> {
  const crash = await buildCrashImage(cutDir, seed, atomicUnit);
  return { crash, journal: loadJournal(join(cutDir, 'journal.bin')) };
}
