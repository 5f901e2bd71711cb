/**
 * A shrunk crash state as a cycle folder like any other: cut/ holds the source's image at the cut
 * and journal (hard links where the filesystem allows, else sparse copies), its ledger and order
 * log, and the shrunk plan; cycle.json is the smallest failing state's judgement, saying what it
 * was shrunk from. `rig repro` rebuilds its crash image byte for byte, and the report shows it.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { ORDER_LOG_FILE } from '../../faults/order-log.js';
import { LOAD_FILE } from '../load/load-file.js';
import type { CycleRecord } from '../results/types.js';
import type { ShrinkOutcome } from './shrink-cut.js';
import { describeFailure } from '../findings/failure-signature.js';

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    linkSync(from, to);
  } catch {
    await execa('cp', ['--sparse=always', from, to]);
  }
}

export async function writeShrunkFolder(sourceDir: string, outcome: Extract<ShrinkOutcome, { kind: 'shrunk' }>, out: string): Promise<CycleRecord> {
  const cut = join(out, 'cut');
  mkdirSync(cut, { recursive: true });
  for (const f of ['image.img', 'journal.bin']) await linkOrCopy(join(sourceDir, 'cut', f), join(cut, f));
  for (const f of [LOAD_FILE, ORDER_LOG_FILE]) if (existsSync(join(sourceDir, 'cut', f))) copyFileSync(join(sourceDir, 'cut', f), join(cut, f));
  writeFileSync(join(cut, 'plan.json'), JSON.stringify(outcome.plan, null, 1) + '\n');
  // the smallest failing trial's own files: its log, its scan's extents, its record
  for (const name of readdirSync(outcome.bestDir)) if (name !== 'plan.json' && name !== 'cycle.json') renameSync(join(outcome.bestDir, name), join(out, name));
  const record: CycleRecord = {
    ...outcome.record,
    id: 'shrunk',
    repro: `rig repro ${out}`,
    shrunk: {
      from: sourceDir, failure: describeFailure(outcome.failure), writesBefore: outcome.writesBefore, writesAfter: outcome.writesAfter,
      tornBefore: outcome.tornBefore, tornAfter: outcome.tornAfter, trials: outcome.trials, ms: outcome.ms, minimal: outcome.minimal, stopped: outcome.stopped,
    },
  };
  delete record.explore; // its crash image comes from cut/ now
  writeFileSync(join(out, 'cycle.json'), JSON.stringify(record, null, 1) + '\n');
  return record;
}
