/**
 * What a scenario's PASS claims, and how many of its cycles exercised it. A doublewrite scenario
 * that expects recovery claims doublewrite restores torn pages: a cycle exercised that when an
 * in-use page tore that only an accepted doublewrite copy restores. A never-torn scenario claims
 * page writes cannot tear: a cycle exercised that when page-size writes were in flight at the cut.
 * Below the scenario's share (`exercise.minShare`, default 0.5) the scenario is vacuous: it passed
 * without testing what it claims. A negative control reports its cycles with in-use torn pages;
 * never tearing at all is already `blind`. A commits-kept scenario (RocksDB tables) claims its
 * commits survive a cut among RocksDB's own writes: a cycle exercised that when a write into its
 * log, SST or MANIFEST files was pending at the cut.
 */
import { writesPageCopies } from './doublewrite-mode.js';
import { describeExercised } from './exercised.js';
import type { CycleRecord, Exercised, ExerciseSummary, ScenarioSettings } from './types.js';

export const DEFAULT_EXERCISE_MIN_SHARE = 0.5;

const CLAIMS: Record<ExerciseSummary['claim'], { test: (e: Exercised) => boolean; text: string }> = {
  doublewrite: { test: (e) => e.tornDoublewrite > 0, text: 'doublewrite exercised' },
  'page-writes-in-flight': { test: (e) => e.pageWritesInFlight > 0, text: 'page writes in flight at the cut' },
  'in-use-torn': { test: (e) => e.tornDoublewrite + e.tornRedo > 0, text: 'in-use pages torn' },
  'rocksdb-writes-in-flight': { test: (e) => (e.rocksdbWritesInFlight ?? 0) > 0, text: 'RocksDB writes in flight at the cut' },
};

export function claimOf(settings: ScenarioSettings): ExerciseSummary['claim'] | null {
  if (settings.expect === 'commits-kept') return 'rocksdb-writes-in-flight';
  if (settings.expect === 'recovers') return writesPageCopies(settings.server.doublewrite) ? 'doublewrite' : null;
  return settings.expect === 'never-torn' ? 'page-writes-in-flight' : 'in-use-torn';
}

/** A record's own `exercised`, or recomputed from its evidence for records saved before it existed. */
export function exercisedOf(record: CycleRecord): Exercised {
  const s = record.settings;
  return record.exercised ?? describeExercised(record.tornPagesBefore, record.pendingWrites, s.server.pageSize, s.disk.atomicUnit);
}

/** The scenario's claim counted over its judged cycles (rig errors exercise nothing and count for nothing). */
export function summarizeExercise(settings: ScenarioSettings, records: readonly CycleRecord[]): ExerciseSummary | null {
  const tally = new ExerciseTally(settings);
  for (const record of records) tally.add(record);
  return tally.summary();
}

/** The same count made one record at a time, for records that stream past. */
export class ExerciseTally {
  private readonly claim: ExerciseSummary['claim'] | null;
  private cycles = 0;
  private judged = 0;

  constructor(private readonly settings: ScenarioSettings) {
    this.claim = claimOf(settings);
  }

  add(record: CycleRecord): void {
    if (!this.claim || record.verdict === 'rig-error') return;
    this.judged += 1;
    if (CLAIMS[this.claim].test(exercisedOf(record))) this.cycles += 1;
  }

  summary(): ExerciseSummary | null {
    const { claim } = this;
    if (!claim) return null;
    const minShare = claim === 'in-use-torn' ? null : (this.settings.exercise?.minShare ?? DEFAULT_EXERCISE_MIN_SHARE);
    return { claim, cycles: this.cycles, of: this.judged, minShare };
  }
}

/** "doublewrite exercised in 3 of 4 cycles" */
export function describeExercise(e: ExerciseSummary): string {
  return `${CLAIMS[e.claim].text} in ${e.cycles} of ${e.of} cycle${e.of === 1 ? '' : 's'}`;
}

/** Whether the judged cycles fall short of the share the scenario must exercise. */
export function isVacuous(e: ExerciseSummary | null): boolean {
  return e !== null && e.minShare !== null && e.of > 0 && e.cycles < e.minShare * e.of;
}

/** The failure line of a vacuous scenario: what it claimed, what it did, how to fix it. */
export function vacuousLine(e: ExerciseSummary): string {
  const share = `${Math.round((100 * e.cycles) / e.of)}%, below the scenario's ${Math.round(100 * e.minShare!)}%`;
  const why = e.claim === 'doublewrite'
    ? 'its PASS would not show that doublewrite restores torn pages: too few cuts tore an in-use page that only an accepted doublewrite copy restores'
    : e.claim === 'rocksdb-writes-in-flight'
      ? "its PASS would not show that RocksDB keeps its commits: too few cuts had a write into RocksDB's files in flight"
      : 'its PASS would not show that page writes never tear: too few cuts had a page-size write in flight';
  return `vacuous: ${describeExercise(e)} (${share}); ${why}. Check the trigger (it must fire inside a page-flush batch), the load and the buffer pool, or lower exercise.minShare`;
}
