/**
 * From cycle records to what a campaign concluded: a summary per scenario (verdict counts, torn
 * cycles, whether the expectation held, whether a negative control was blind, one line per
 * failure), the campaign's outcome and its rate. Recomputed from the records, never trusted
 * from a previous summary, so a merge and a resume agree with a straight run.
 */
import { FINDINGS, knownFinding } from '../findings/catalog.js';
import { contradicts, needsTear } from './expectation.js';
import { isVacuous, summarizeExercise, vacuousLine } from './exercise-claim.js';
import { ibdPageZeroWrites, lifecyclePageZeroWrites } from './page-zero.js';
import type { CampaignResults, CycleRecord, ScenarioSettings, ScenarioSummary, Verdict } from './types.js';

/** What the summary needs to know about a scenario beyond its records. */
export interface ScenarioPlan {
  settings: ScenarioSettings;
  cyclesPlanned: number; // in this run (a shard plans only its share)
  pairsPlanned?: number; // mode: perf: its pairs of runs in this run (its cyclesPlanned is 0)
}

type Outcome = CampaignResults['outcome'];

export function summarizeScenario(plan: ScenarioPlan, records: CycleRecord[]): ScenarioSummary {
  const expectation = plan.settings.expect;
  const verdictCounts: Partial<Record<Verdict, number>> = {};
  const failures: string[] = [];
  let tornCycles = 0;
  let pageZeroCycles = 0;
  let lifecyclePageZeroCycles = 0;
  let judged = 0;
  const findings = (plan.settings.findings ?? []).map((id) => FINDINGS[id]);
  const hits = new Map(findings.map((f) => [f.id, 0]));
  for (const record of records) {
    const torn = record.tornPagesBefore.length;
    if (ibdPageZeroWrites(record) > 0) pageZeroCycles += 1;
    if (lifecyclePageZeroWrites(record) > 0) lifecyclePageZeroCycles += 1;
    verdictCounts[record.verdict] = (verdictCounts[record.verdict] ?? 0) + 1;
    if (torn > 0) tornCycles += 1;
    if (record.verdict === 'rig-error') failures.push(`${label(record)}: rig-error: ${oneLine(record.error ?? record.reason)}`);
    else judged += 1;
    const known = record.verdict === 'rig-error' ? null : knownFinding(findings, record);
    if (known) hits.set(known.id, hits.get(known.id)! + 1);
    if (contradicts(expectation, record.verdict, torn)) {
      if (!known) failures.push(`${label(record)}: ${record.verdict} contradicts ${expectation}: ${oneLine(record.reason)}`);
    }
  }
  const complete = records.length >= plan.cyclesPlanned;
  const blind = needsTear(expectation) && complete && judged > 0 && tornCycles === 0;
  if (blind) {
    const what = expectation === 'detects' ? 'this scenario never tore a page for the server to detect' : 'this negative control never reproduced what the rig looks for';
    failures.push(`blind: no torn page in ${judged} cycle${judged === 1 ? '' : 's'}; ${what}, so the rig cannot show it would see one`);
  }
  const exercise = summarizeExercise(plan.settings, records);
  const vacuous = complete && isVacuous(exercise);
  if (vacuous) failures.push(vacuousLine(exercise!));
  return {
    name: plan.settings.name,
    settings: plan.settings,
    expectation,
    cyclesPlanned: plan.cyclesPlanned,
    ...(plan.pairsPlanned !== undefined ? { pairsPlanned: plan.pairsPlanned } : {}),
    cyclesRun: records.length,
    verdictCounts,
    tornCycles,
    pageZeroCycles,
    lifecyclePageZeroCycles,
    held: failures.length === 0,
    blind,
    exercise,
    vacuous,
    ...(findings.length ? { findings: findings.map((f) => ({ id: f.id, title: f.title, doc: f.doc, hits: hits.get(f.id)!, of: judged })) } : {}),
    failures,
  };
}

/** Summaries in plan order; a record of a scenario not in the plan is the caller's bug. */
export function summarizeScenarios(plans: ScenarioPlan[], cycles: CycleRecord[]): ScenarioSummary[] {
  return plans.map((plan) => summarizeScenario(plan, cycles.filter((c) => c.scenario === plan.settings.name)));
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
