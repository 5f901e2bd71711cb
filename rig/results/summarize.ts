/**
 * From cycle records to what a campaign concluded: a summary per scenario (verdict counts, torn
 * cycles, whether the expectation held, whether a negative control was blind, one line per
 * failure), the campaign's outcome and its rate. Recomputed from the records, never trusted
 * from a previous summary, so a merge and a resume agree with a straight run.
 */
import { FINDINGS, knownFinding, type Finding } from '../findings/catalog.js';
import { contradicts, needsTear } from './expectation.js';
import { ExerciseTally, isVacuous, vacuousLine } from './exercise-claim.js';
import type { FindingId } from './finding-ids.js';
import { ibdPageZeroWrites, lifecyclePageZeroWrites } from './page-zero.js';
import type { CampaignResults, CycleRecord, ScenarioSettings, ScenarioSummary, Verdict } from './types.js';

/** What the summary needs to know about a scenario beyond its records. */
export interface ScenarioPlan {
  settings: ScenarioSettings;
  cyclesPlanned: number; // in this run (a shard plans only its share)
  pairsPlanned?: number; // mode: perf: its pairs of runs in this run (its cyclesPlanned is 0)
}

type Outcome = CampaignResults['outcome'];

/**
 * A scenario's summary built one record at a time, for records that stream past: it keeps counts
 * and the failure lines, never a record. `summary()` may be asked at any point.
 */
export class ScenarioTally {
  private readonly findings: Finding[];
  private readonly hits: Map<FindingId, number>;
  private readonly exercise: ExerciseTally;
  private readonly verdictCounts: Partial<Record<Verdict, number>> = {};
  private readonly failures: string[] = [];
  private records = 0;
  private tornCycles = 0;
  private pageZeroCycles = 0;
  private lifecyclePageZeroCycles = 0;
  private judged = 0;

  constructor(private readonly plan: ScenarioPlan) {
    this.findings = (plan.settings.findings ?? []).map((id) => FINDINGS[id]);
    this.hits = new Map(this.findings.map((f) => [f.id, 0]));
    this.exercise = new ExerciseTally(plan.settings);
  }

  add(record: CycleRecord): void {
    const expectation = this.plan.settings.expect;
    const torn = record.tornPagesBefore.length;
    this.records += 1;
    if (ibdPageZeroWrites(record) > 0) this.pageZeroCycles += 1;
    if (lifecyclePageZeroWrites(record) > 0) this.lifecyclePageZeroCycles += 1;
    this.verdictCounts[record.verdict] = (this.verdictCounts[record.verdict] ?? 0) + 1;
    if (torn > 0) this.tornCycles += 1;
    if (record.verdict === 'rig-error') this.failures.push(`${label(record)}: rig-error: ${oneLine(record.error ?? record.reason)}`);
    else this.judged += 1;
    const known = record.verdict === 'rig-error' ? null : knownFinding(this.findings, record);
    if (known) this.hits.set(known.id, this.hits.get(known.id)! + 1);
    if (contradicts(expectation, record.verdict, torn)) {
      if (!known) this.failures.push(`${label(record)}: ${record.verdict} contradicts ${expectation}: ${oneLine(record.reason)}`);
    }
    this.exercise.add(record);
  }

  summary(): ScenarioSummary {
    const { plan, judged, tornCycles } = this;
    const expectation = plan.settings.expect;
    const failures = [...this.failures];
    const complete = this.records >= plan.cyclesPlanned;
    const blind = needsTear(expectation) && complete && judged > 0 && tornCycles === 0;
    if (blind) {
      const what = expectation === 'detects' ? 'this scenario never tore a page for the server to detect' : 'this negative control never reproduced what the rig looks for';
      failures.push(`blind: no torn page in ${judged} cycle${judged === 1 ? '' : 's'}; ${what}, so the rig cannot show it would see one`);
    }
    const exercise = this.exercise.summary();
    const vacuous = complete && isVacuous(exercise);
    if (vacuous) failures.push(vacuousLine(exercise!));
    return {
      name: plan.settings.name,
      settings: plan.settings,
      expectation,
      cyclesPlanned: plan.cyclesPlanned,
      ...(plan.pairsPlanned !== undefined ? { pairsPlanned: plan.pairsPlanned } : {}),
      cyclesRun: this.records,
      verdictCounts: { ...this.verdictCounts },
      tornCycles,
      pageZeroCycles: this.pageZeroCycles,
      lifecyclePageZeroCycles: this.lifecyclePageZeroCycles,
      held: failures.length === 0,
      blind,
      exercise,
      vacuous,
      ...(this.findings.length ? { findings: this.findings.map((f) => ({ id: f.id, title: f.title, doc: f.doc, hits: this.hits.get(f.id)!, of: judged })) } : {}),
      failures,
    };
  }
}

/** The tallies of every planned scenario, fed records of any of them; a record of a scenario not
 * in the plan is the caller's bug, and counts for nothing. */
export class ScenarioTallies {
  private readonly tallies: Map<string, ScenarioTally>;

  constructor(plans: ScenarioPlan[]) {
    this.tallies = new Map(plans.map((plan) => [plan.settings.name, new ScenarioTally(plan)]));
  }

  add(record: CycleRecord): void {
    this.tallies.get(record.scenario)?.add(record);
  }

  /** Summaries in plan order. */
  summaries(): ScenarioSummary[] {
    return [...this.tallies.values()].map((tally) => tally.summary());
  }
}

export function summarizeScenario(plan: ScenarioPlan, records: CycleRecord[]): ScenarioSummary {
  const tally = new ScenarioTally(plan);
  for (const record of records) tally.add(record);
  return tally.summary();
}

/** Summaries in plan order; a record of a scenario not in the plan is the caller's bug. */
export function summarizeScenarios(plans: ScenarioPlan[], cycles: CycleRecord[]): ScenarioSummary[] {
  const tallies = new ScenarioTallies(plans);
  for (const record of cycles) tallies.add(record);
  return tallies.summaries();
}

/**
 * fail when any cycle contradicted its expectation, a negative control was blind or a scenario was
 * vacuous (a database
 * finding outranks a rig error); else rig-error when a cycle failed for the rig's reasons or a
 * finished run is missing cycles; else pass. A run still going is `running`.
 */
export function campaignOutcome(scenarios: ScenarioSummary[], finished: boolean): Outcome {
  if (!finished) return 'running';
  if (scenarios.some((s) => s.blind || s.vacuous || contradictedCycles(s) > 0)) return 'fail';
  const rigTrouble = scenarios.some((s) => (s.verdictCounts['rig-error'] ?? 0) > 0 || s.cyclesRun < s.cyclesPlanned);
  return rigTrouble ? 'rig-error' : 'pass';
}

/**
 * Cycles that contradicted the expectation in a way no known finding of the scenario explains: the
 * failure lines that are neither rig errors, blindness nor vacuity.
 */
export function contradictedCycles(summary: ScenarioSummary): number {
  return Math.max(0, summary.failures.length - (summary.verdictCounts['rig-error'] ?? 0) - (summary.blind ? 1 : 0) - (summary.vacuous ? 1 : 0));
}

/** The exit code an outcome gives a command: 0 pass, 1 fail, 3 rig error (2 is bad input). */
export function outcomeExitCode(outcome: Outcome): number {
  return { pass: 0, fail: 1, 'rig-error': 3, running: 3 }[outcome];
}

/** Cycles per hour of wall-clock time, or null when no time has passed or nothing ran. */
export function cyclesPerHour(cycles: number, startedAt: string, finishedAt: string | null, now = new Date()): number | null {
  const end = finishedAt ? Date.parse(finishedAt) : now.getTime();
  const hours = (end - Date.parse(startedAt)) / 3_600_000;
  if (!(hours > 0) || cycles === 0) return null;
  return Math.round((cycles / hours) * 10) / 10;
}

function label(record: CycleRecord): string {
  return `${record.id} (seed ${record.seed})`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
