/**
 * Plans aimed at pages: the crash state of a cut in which exactly the chosen pages tear and every
 * other pending write lands, so a check or a search gets the state it needs instead of waiting for
 * a cut to happen on it. A page tears when the last pending write that touched it keeps only its
 * first atomic unit. Which writes touched which page comes from the truth of the state with every
 * write landed; what the scan makes of each page torn (its copies, which of them the server's rules
 * accept, page 0's lookup) comes from a probe that tears every live page at once. The probe only
 * chooses: the evidence of a judged state is always its own scan's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { landAll, landAllBut } from '../../faults/chosen-plan.js';
import { makePlan, type CrashPlan } from '../../faults/crash-plan.js';
import { loadJournal } from '../../faults/journal.js';
import type { TornPage } from '../results/types.js';
import type { ServerFlavor } from '../runtime/find-server-binary.js';
import { scanCut, type CutInput } from './judge-cut.js';
import type { PageTruth } from './page-truth.js';

/** A live page a pending write touched, the write that tears it, and the scan's view of it torn. */
export interface ProbedPage {
  file: string;
  page: number;
  lastWrite: number; // journal seq of the last pending write that touched it
  type: number | null; // FIL_PAGE_TYPE of its newest version (FIL_PAGE_INDEX: rows or index entries)
  torn: TornPage | null; // null: tearing its last write left a whole version (nothing to tear)
}

/** The cut's own plan (cut/plan.json), or for a cut that has none a plan drawn from seed 1. */
export function cutPlan(cycleDir: string, atomicUnit: number): CrashPlan {
  const path = join(cycleDir, 'cut', 'plan.json');
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as CrashPlan;
  return makePlan(loadJournal(join(cycleDir, 'cut', 'journal.bin')), 1, atomicUnit);
}

const key = (file: string, page: number): string => `${file}#${page}`;

/** Every live page of the cut with every page torn at once, as the scan describes it. */
export async function probeTears(input: Omit<CutInput, 'plan'>, flavor: ServerFlavor): Promise<ProbedPage[]> {
  const from = cutPlan(input.cycleDir, input.settings.disk.atomicUnit);
  const landed = await scanCut({ ...input, plan: landAll(from) }, flavor);
  const live = landed.truth.filter((p: PageTruth) => p.class === 'whole' && p.writeSeqs.length > 0);
  const last = new Map(live.map((p) => [key(p.file, p.page), p.writeSeqs.at(-1)!]));
  const probe = landAllBut(from, new Map([...new Set(last.values())].map((seq) => [seq, 'torn' as const])), 'every live page torn (a probe)');
  const scanned = await scanCut({ ...input, plan: probe }, flavor);
  const torn = new Map(scanned.torn.map((p) => [key(p.file, p.page), p]));
  return live.map((p) => ({
    file: p.file, page: p.page, lastWrite: last.get(key(p.file, p.page))!, type: p.newestType ?? null, torn: torn.get(key(p.file, p.page)) ?? null,
  }));
}

/** The cut's plan with exactly these pages torn (their last writes) and every other write landed. */
export function tearPages(from: CrashPlan, pages: readonly Pick<ProbedPage, 'file' | 'page' | 'lastWrite'>[], how: string): CrashPlan {
  return landAllBut(from, new Map(pages.map((p) => [p.lastWrite, 'torn' as const])), how);
}
