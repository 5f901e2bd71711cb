/**
 * Shrinks a failing crash state: the plan of a cut (which pending writes landed, were dropped, or
 * tore) cut down to the fewest writes that did not land and still give the same failure
 * (./failure-signature.ts), every other write landed. Every trial is a real recovery on a real
 * crash image, judged by the same oracle (rig/cycle/judge-cut.ts). In order:
 * 1. confirm: the cut's own plan judged twice; a failure that does not come back both times is
 *    reported with its counts and not shrunk;
 * 2. every write landed: a failure that still shows needs no lost write at all;
 * 3. what the oracle names first: only the writes of the pages the failure is about (a torn page 0
 *    the finding names, the pages left invalid, the page the log names) and the writes that
 *    carried or overwrote their doublewrite copies, if that alone still fails;
 * 4. ddmin over what is left (./ddmin.ts): 1-minimal, so landing any one more write makes the
 *    failure go away.
 * The same cut and plan give the same result: the search is deterministic, and so is the server
 * on one crash image as far as the confirmation shows.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_UNITS, choosePlan } from '../../faults/chosen-plan.js';
import type { CrashPlan, PendingWrite } from '../../faults/crash-plan.js';
import { judgeCut, scanCut } from '../cycle/judge-cut.js';
import type { PageTruth } from '../cycle/page-truth.js';
import type { CycleRecord, RecoveryBounds, ScenarioSettings, TornPage } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import type { ServerFlavor } from '../results/server-identity.js';
import { ddmin } from './ddmin.js';
import { describeFailure, failureOf, sameFailure, type FailureSignature } from '../findings/failure-signature.js';

export interface ShrinkInput {
  cycleDir: string; // the failing state as a cut: cut/image.img, cut/journal.bin, cut/plan.json
  settings: ScenarioSettings;
  runtime: ServerRuntime;
  flavor: ServerFlavor;
  workDir: string; // trials are judged here, one at a time; the smallest failing one is kept in best/
  maxTrials: number;
  bounds?: Partial<RecoveryBounds>;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}

export type ShrinkOutcome =
  | { kind: 'not-reproduced'; failure: FailureSignature | null; confirmations: string[]; trials: number; ms: number }
  | {
      kind: 'shrunk';
      failure: FailureSignature;
      plan: CrashPlan;
      record: CycleRecord; // the smallest failing state's judgement
      bestDir: string; // its folder (cycle.json, error.log, plan.json)
      writesBefore: number; // writes that did not land in the cut's own plan
      writesAfter: number;
      tornBefore: number;
      tornAfter: number;
      trials: number;
      ms: number;
      minimal: boolean;
      stopped: 'bound' | 'signal' | null;
    };

const lostWrites = (plan: CrashPlan): PendingWrite[] => plan.writes.filter((w) => w.fate !== 'landed');

/** The plan that keeps the cut's fates for `seqs` only, every other write landed. */
function keepOnly(plan: CrashPlan, seqs: readonly number[]): CrashPlan {
  const keep = new Set(seqs);
  const how = `the cut's fates for ${seqs.length} write${seqs.length === 1 ? '' : 's'}, every other write landed`;
  return choosePlan(plan, how, (w, i) => (keep.has(w.seq) ? plan.writes[i]!.unitsLanded : ALL_UNITS(w, i)));
}

/** The torn pages a failure is about: those its finding names, else those left invalid, else the page its log names. */
function namedPages(record: CycleRecord, failure: FailureSignature): TornPage[] {
  const torn = record.tornPagesBefore;
  if (failure.finding === 'page0-not-restored') return torn.filter((p) => p.page0?.finding);
  const lost = torn.filter((p) => !p.freedBefore && !p.freedAfter && p.validAfter !== true);
  if (lost.length) return lost;
  const e = failure.event;
  return e ? torn.filter((p) => p.page === e.page && (e.space === null || p.space === e.space)) : [];
}

/** The pending writes of the named pages, and of the copies of them in flight or overwritten. */
function namedWrites(pages: TornPage[], truth: PageTruth[]): number[] {
  const seqs = new Set<number>();
  for (const p of pages) {
    for (const s of truth.find((x) => x.file === p.file && x.page === p.page)?.writeSeqs ?? []) seqs.add(s);
    for (const c of [...(p.doublewrite.inFlight ?? []), ...(p.doublewrite.overwritten ?? [])]) seqs.add(c.seq);
  }
  return [...seqs];
}

export async function shrinkCut(input: ShrinkInput): Promise<ShrinkOutcome> {
  const started = Date.now();
  const say = input.onProgress ?? (() => {});
  const own = JSON.parse(readFileSync(join(input.cycleDir, 'cut', 'plan.json'), 'utf8')) as CrashPlan;
  const best = join(input.workDir, 'best');
  const trialDir = join(input.workDir, 'trial');
  mkdirSync(input.workDir, { recursive: true });
  let trials = 0;
  const judge = async (plan: CrashPlan): Promise<CycleRecord> => {
    trials += 1;
    rmSync(trialDir, { recursive: true, force: true });
    const { record } = await judgeCut({
      id: `trial-${trials}`, cycleDir: input.cycleDir, plan, outDir: trialDir, settings: input.settings, runtime: input.runtime,
      ...(input.bounds ? { bounds: input.bounds } : {}), ...(input.signal ? { signal: input.signal } : {}),
    });
    return record;
  };
  const keepBest = (): void => {
    rmSync(best, { recursive: true, force: true });
    renameSync(trialDir, best);
  };

  // 1. confirm
  const live = existsSync(join(input.cycleDir, 'cycle.json')) ? (JSON.parse(readFileSync(join(input.cycleDir, 'cycle.json'), 'utf8')) as CycleRecord) : null;
  const firsts: CycleRecord[] = [];
  for (let i = 0; i < 2; i++) {
    firsts.push(await judge(own));
    input.signal?.throwIfAborted(); // interrupted before the failure was confirmed: nothing to keep
    if (i === 0) keepBest();
    say(`confirm ${i + 1}/2: ${firsts[i]!.verdict}`);
  }
  const failure = failureOf(live ?? firsts[0]!);
  const confirmations = firsts.map((r) => `${r.verdict}${failureOf(r) ? ` (${describeFailure(failureOf(r)!)})` : ''}`);
  if (!failure || !firsts.every((r) => sameFailure(failureOf(r), failure))) {
    rmSync(input.workDir, { recursive: true, force: true });
    return { kind: 'not-reproduced', failure, confirmations, trials, ms: Date.now() - started };
  }
  say(`the failure: ${describeFailure(failure)}`);
  const lost = lostWrites(own).map((w) => w.seq);
  let bestRecord = firsts[0]!;
  let bestSeqs = lost;
  const fails = async (seqs: number[]): Promise<boolean> => {
    const record = await judge(keepOnly(own, seqs));
    if (input.signal?.aborted) return false; // an interrupted trial says nothing; the search stops before the next
    const same = sameFailure(failureOf(record), failure);
    if (same && seqs.length < bestSeqs.length) {
      keepBest();
      bestRecord = record;
      bestSeqs = seqs;
    }
    say(`trial ${trials}: ${seqs.length} write${seqs.length === 1 ? '' : 's'} not landed: ${same ? 'fails the same way' : record.verdict}; best so far ${bestSeqs.length}`);
    return same;
  };
  const outcome = (minimal: boolean, stopped: 'bound' | 'signal' | null): ShrinkOutcome => {
    rmSync(trialDir, { recursive: true, force: true });
    return {
      kind: 'shrunk', failure, plan: keepOnly(own, bestSeqs), record: bestRecord, bestDir: best,
      writesBefore: lost.length, writesAfter: bestSeqs.length, tornBefore: firsts[0]!.tornPagesBefore.length, tornAfter: bestRecord.tornPagesBefore.length,
      trials, ms: Date.now() - started, minimal, stopped,
    };
  };

  // 2. every write landed
  if (await fails([])) return outcome(true, null);
  if (input.signal?.aborted) return outcome(false, 'signal');
  // 3. what the oracle names first
  const truth = (await scanCut({ cycleDir: input.cycleDir, plan: own, outDir: join(input.workDir, 'scan'), settings: input.settings }, input.flavor)).truth;
  const named = namedWrites(namedPages(firsts[0]!, failure), truth).filter((s) => lost.includes(s)).sort((a, b) => a - b);
  const room = () => input.maxTrials - trials;
  let search = lost;
  if (named.length > 0 && named.length < lost.length && room() > 0 && !input.signal?.aborted) {
    say(`the oracle names ${named.length} of the ${lost.length} writes: trying those alone first`);
    if (await fails(named)) search = named;
  }
  if (input.signal?.aborted) return outcome(false, 'signal');
  // 4. ddmin, the named writes first
  const ordered = [...search.filter((s) => named.includes(s)), ...search.filter((s) => !named.includes(s))];
  if (room() <= 0) return outcome(false, 'bound');
  const result = await ddmin(ordered, fails, { maxTests: room(), ...(input.signal ? { signal: input.signal } : {}) });
  return outcome(result.minimal, result.stopped);
}
