/**
 * Stage 4, materialize: a seeded plan (with the scenario's fate weights) decides each pending write's fate and the crash image is
 * written beside the image at the cut (faults/crash-image.ts); the journal is read back for the
 * truth the scan stage derives from it, with the disk's order log when it kept one, and must hold
 * exactly the writes the disk counted pending at its cut.
 */
import { join } from 'node:path';
import { buildCrashImage, type CrashImage } from '../../../faults/crash-image.js';
import type { FatePolicy } from '../../../faults/crash-plan.js';
import { loadJournal, type JournalEntry } from '../../../faults/journal.js';
import { ORDER_LOG_FILE, readOrderLog, type OrderEvent } from '../../../faults/order-log.js';
import { rigFailure } from '../../errors.js';

export interface Materialized {
  crash: CrashImage;
  journal: JournalEntry[];
  order: OrderEvent[] | null; // the disk's order log: evidence for the write-order check
}

export async function materialize(cutDir: string, seed: number, atomicUnit: number, pendingAtCut: number, policy?: FatePolicy): Promise<Materialized> {
  const journal = loadJournal(join(cutDir, 'journal.bin'));
  if (journal.length !== pendingAtCut) {
    throw rigFailure(`the journal holds ${journal.length} writes, the disk counted ${pendingAtCut} pending at its cut`);
  }
  const crash = await buildCrashImage(cutDir, seed, atomicUnit, policy);
  return { crash, journal, order: readOrderLog(join(cutDir, ORDER_LOG_FILE)) };
}
