/**
 * Stage 4, materialize: a seeded plan decides each pending write's fate and the crash image is
 * written beside the image at the cut (faults/crash-image.ts); the journal is read back for the
 * truth the scan stage derives from it, with the disk's order log when it kept one.
 */
import { join } from 'node:path';
import { buildCrashImage, type CrashImage } from '../../../faults/crash-image.js';
import { readJournal, type JournalEntry } from '../../../faults/journal.js';
import { ORDER_LOG_FILE, readOrderLog, type OrderEvent } from '../../../faults/order-log.js';

export interface Materialized {
  crash: CrashImage;
  journal: JournalEntry[];
  order: OrderEvent[] | null; // the disk's order log: evidence for the write-order check
}

export async function materialize(cutDir: string, seed: number, atomicUnit: number): Promise<Materialized> {
  const crash = await buildCrashImage(cutDir, seed, atomicUnit);
  return { crash, journal: readJournal(join(cutDir, 'journal.bin')), order: readOrderLog(join(cutDir, ORDER_LOG_FILE)) };
}
