/**
 * Plans aimed at pages: the crash state of a cut in which exactly the chosen pages tear and every
 * other pending write lands, so a check or a search gets the state it needs instead of waiting for
 * a cut to happen on it. A page tears when the last pending write that touched it keeps only its
 * first atomic unit. Which writes touched which page comes from the truth of the state with every
 * write landed; what the scan makes of each page torn (its copies, which of them the server's rules
 * accept, page 0's lookup) comes from a probe that tears every live page at once. The probe only
 * chooses: the evidence of a judged state is always its own scan's.
 *
 * A state may also be taken at an earlier moment of the cut: every pending write up to a journal
 * seq landed (or torn on purpose), every later one lost, as if the power had gone then. Losing
 * unflushed writes is what a crash may always do, so it is a state the server must survive. It is
 * how a page whose doublewrite copy a later pending write overwrote (a reused slot) gets its copy
 * back: `momentBefore` names the moment before that write.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { landAllBut } from '../../faults/chosen-plan.js';
import { makePlan, type CrashPlan } from '../../faults/crash-plan.js';
import { loadJournal } from '../../faults/journal.js';
import type { TornPage } from '../results/types.js';
import type { ServerFlavor } from '../results/server-identity.js';
import { scanCut, type CutInput } from './judge-cut.js';
import type { PageTruth } from './page-truth.js';

/** A live page a pending write touched, the write that tears it, and the scan's view of it torn. */
export interface ProbedPage {
  file: string;
  page: number;
  lastWrite: number; // journal seq of the last pending write that touched it
  type: number | null; // FIL_PAGE_TYPE of its newest version (FIL_PAGE_INDEX: rows or index entries)
  torn: TornPage | null; // null: tearing its last write left a whole version (nothing to tear)
  moment?: number; // the probe's moment: writes after this seq were lost
}

/** The cut's own plan (cut/plan.json), or for a cut that has none a plan drawn from seed 1. */
export function cutPlan(cycleDir: string, atomicUnit: number): CrashPlan {
  const path = join(cycleDir, 'cut', 'plan.json');
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as CrashPlan;
  return makePlan(loadJournal(join(cycleDir, 'cut', 'journal.bin')), 1, atomicUnit);
}

const key = (file: string, page: number): string => `${file}#${page}`;

/** Every pending write after `moment` lost, these writes torn, every other landed. */
function atMoment(from: CrashPlan, torn: Iterable<number>, how: string, moment?: number): CrashPlan {
  const fates = new Map<number, 'dropped' | 'torn'>();
  if (moment !== undefined) for (const w of from.writes) if (w.seq > moment) fates.set(w.seq, 'dropped');
  for (const seq of torn) fates.set(seq, 'torn');
  return landAllBut(from, fates, moment === undefined ? how : `${how}, every write after seq ${moment} lost`);
}

/**
 * Every live page of the cut with every page torn at once, as the scan describes it; at `moment`,
 * the pages the writes up to it touched, each torn at its last write up to it.
 */
export async function probeTears(input: Omit<CutInput, 'plan'>, flavor: ServerFlavor, moment?: number): Promise<ProbedPage[]> {
  const from = cutPlan(input.cycleDir, input.settings.disk.atomicUnit);
  const landed = await scanCut({ ...input, plan: atMoment(from, [], 'every write landed', moment) }, flavor);
  const upTo = (p: PageTruth) => (moment === undefined ? p.writeSeqs : p.writeSeqs.filter((seq) => seq <= moment));
  const live = landed.truth.filter((p: PageTruth) => p.class === 'whole' && upTo(p).length > 0);
  const last = new Map(live.map((p) => [key(p.file, p.page), upTo(p).at(-1)!]));
  const probe = atMoment(from, new Set(last.values()), 'every live page torn (a probe)', moment);
  const scanned = await scanCut({ ...input, plan: probe }, flavor);
  const torn = new Map(scanned.torn.map((p) => [key(p.file, p.page), p]));
  return live.map((p) => ({
    file: p.file, page: p.page, lastWrite: last.get(key(p.file, p.page))!, type: p.newestType ?? null, torn: torn.get(key(p.file, p.page)) ?? null,
    ...(moment === undefined ? {} : { moment }),
  }));
}

/**
 * The latest moment at which one of these probed pages, torn, still has the doublewrite copy a later
 * pending write overwrote: just before the first such write after its home write. Null: none has.
 */
export function momentBefore(pages: readonly ProbedPage[]): number | null {
  const moments = pages.flatMap((p) => {
    const after = (p.torn?.doublewrite.overwritten ?? []).filter((w) => w.seq > p.lastWrite).map((w) => w.seq);
    return after.length ? [Math.min(...after) - 1] : [];
  });
  return moments.length ? Math.max(...moments) : null;
}

/**
 * The cut's plan with exactly these pages torn (their last writes) and every other write landed; at
 * their probe's moment, every write after it lost.
 */
export function tearPages(from: CrashPlan, pages: readonly Pick<ProbedPage, 'file' | 'page' | 'lastWrite' | 'moment'>[], how: string): CrashPlan {
  const moments = new Set(pages.map((p) => p.moment));
  if (moments.size > 1) throw new Error(`pages probed at different moments cannot tear together (${[...moments].join(', ')})`);
  return atMoment(from, pages.map((p) => p.lastWrite), how, pages[0]?.moment);
}
