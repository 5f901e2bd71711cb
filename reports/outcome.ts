/**
 * What a reviewer must see first: the campaign's verdict in one line, and the alarms that outrank
 * everything else (a blind negative control, a vacuous scenario, corruption served silently or
 * not, a lost commit, a server that crashed or hung where it should have recovered, a page torn
 * where none may tear). Derived from the saved run only.
 */
import type { ScenarioSummary, Verdict } from '../rig/results/types.js';
import type { BriefedResults, CycleBrief } from '../rig/results/cycle-brief.js';
import { describeExercise } from '../rig/results/exercise-claim.js';
import { contradictedCycles } from '../rig/results/summarize.js';
import { missingPairs } from '../rig/results/perf-outcome.js';
import { formatBytes, formatCount, formatPercent, VERDICT_LABELS } from './format.js';
import { describeStraddleTargets, tallyStraddles } from './straddles.js';
import { cutScenarios } from './cut-scenarios.js';

export type CampaignStatus = 'pass' | 'fail' | 'rig-error' | 'running';

export interface Headline {
  status: CampaignStatus;
  label: string; // PASS, FAIL, RIG ERROR, RUNNING
  why: string;
}

export type AlarmKind = 'silent-corruption' | 'reported-corruption' | 'lost-commit' | 'server-failure' | 'blind' | 'vacuous' | 'torn-where-atomic';

export interface Alarm {
  kind: AlarmKind;
  title: string;
  detail: string;
  cycleIds: string[];
}

const LABELS: Record<CampaignStatus, string> = {
  'pass': 'PASS',
  'fail': 'FAIL',
  'rig-error': 'RIG ERROR',
  'running': 'RUNNING',
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function scenarioProblem(s: ScenarioSummary, cycles: CycleBrief[]): string {
  if (s.blind) return `${s.name} is blind (no torn page in ${plural(s.cyclesRun, 'cycle')})`;
  if (s.vacuous && s.exercise && contradictedCycles(s) === 0) return `${s.name} is vacuous (${describeExercise(s.exercise)})`;
  const bad = cycles.filter((c) => c.scenario === s.name && !c.expectationHeld && c.verdict !== 'rig-error');
  if (bad.length === 0) return s.failures[0] ? `${s.name}: ${s.failures[0]}` : `${s.name} contradicted "${s.expectation}"`;
  const counts = new Map<string, number>();
  for (const c of bad) counts.set(c.verdict, (counts.get(c.verdict) ?? 0) + 1);
  const verdicts = [...counts].map(([v, n]) => `${n} ${VERDICT_LABELS[v as Verdict]}`).join(', ');
  return `${s.name}: ${bad.length} of ${s.cyclesRun} cycles contradicted ${s.expectation} (${verdicts})`;
}

export function campaignHeadline(results: BriefedResults): Headline {
  const status = results.outcome;
  const cycles = results.cycles.length;
  const failed = results.scenarios.filter((s) => s.blind || s.vacuous || contradictedCycles(s) > 0);
  let why: string;
  if (status === 'running') {
    const planned = results.scenarios.reduce((sum, s) => sum + s.cyclesPlanned, 0);
    why = `partial results: ${cycles} of ${planned} cycles run so far`;
  } else if (status === 'rig-error') {
    const errors = results.cycles.filter((c) => c.verdict === 'rig-error');
    const pairs = (results.perf ?? []).filter((p) => p.error !== null);
    const first = errors[0]?.error ?? errors[0]?.reason ?? pairs[0]?.error;
    const where = errors.length || !pairs.length ? `${errors.length} of ${plural(cycles, 'cycle')}` : `${pairs.length} of ${plural(results.perf!.length, 'perf pair')}`;
    const unrun = results.scenarios.reduce((sum, s) => sum + Math.max(0, s.cyclesPlanned - s.cyclesRun), 0);
    const short = missingPairs(results.perf ?? [], results.scenarios);
    why = errors.length || pairs.length || !(unrun || short.length)
      ? `the rig itself failed in ${where}; no database finding is claimed` + (first ? ` (first: ${first})` : '')
      : `the run is incomplete: ${[unrun ? `${plural(unrun, 'planned cycle')} never ran` : '', short.length ? `perf pairs missing (${short.join(', ')} run)` : ''].filter(Boolean).join('; ')}; no database finding is claimed`;
  } else if (status === 'fail' || failed.length > 0) {
    // blind and vacuous scenarios contradict nothing; they failed to test their claim
    why = `${failed.length} of ${plural(cutScenarios(results).length, 'scenario')} failed: ` +
      failed.map((s) => scenarioProblem(s, results.cycles)).join('; ');
  } else {
    why = `every expectation held: ${plural(cutScenarios(results).length, 'scenario')}, ${plural(cycles, 'cycle')}` +
      negativeControlNote(results.scenarios);
  }
  const shown: CampaignStatus = status === 'pass' && failed.length > 0 ? 'fail' : status;
  return { status: shown, label: LABELS[shown], why };
}

function negativeControlNote(scenarios: ScenarioSummary[]): string {
  const controls = scenarios.filter((s) => s.expectation === 'torn-reproduced');
  if (controls.length === 0) return '; no negative control in this campaign';
  const torn = controls.reduce((n, s) => n + s.tornCycles, 0);
  const run = controls.reduce((n, s) => n + s.cyclesRun, 0);
  return `; the negative control tore pages in ${torn}/${run} cycles (${formatPercent(torn, run)})`;
}

const SERVER_FAILURES: Verdict[] = ['crashed', 'hung', 'shutdown-crash'];

function idsWhere(cycles: CycleBrief[], keep: (c: CycleBrief) => boolean): string[] {
  return cycles.filter(keep).map((c) => c.id);
}

export function campaignAlarms(results: BriefedResults): Alarm[] {
  const alarms: Alarm[] = [];
  const silent = idsWhere(results.cycles, (c) => c.verdict === 'silent-corruption');
  if (silent.length > 0) {
    alarms.push({
      kind: 'silent-corruption',
      title: `Silent corruption in ${plural(silent.length, 'cycle')}`,
      detail: 'The server started and served data, but a torn page survived recovery, CHECK TABLE failed or an invariant broke.',
      cycleIds: silent,
    });
  }
  const reported = idsWhere(results.cycles, (c) => c.verdict === 'reported-corruption');
  if (reported.length > 0) {
    alarms.push({
      kind: 'reported-corruption',
      title: `Corruption served in ${plural(reported.length, 'cycle')} (the server logged it)`,
      detail: 'The server started and served data with a torn page, an invalid page or a failing CHECK TABLE; its error log named corruption.',
      cycleIds: reported,
    });
  }
  const lost = idsWhere(results.cycles, (c) => c.verdict === 'lost-commit');
  if (lost.length > 0) {
    alarms.push({
      kind: 'lost-commit',
      title: `Lost commits in ${plural(lost.length, 'cycle')}`,
      detail: 'A commit the client saw acknowledged was missing after recovery.',
      cycleIds: lost,
    });
  }
  const failed = idsWhere(results.cycles, (c) => SERVER_FAILURES.includes(c.verdict) && !c.expectationHeld);
  if (failed.length > 0) {
    alarms.push({
      kind: 'server-failure',
      title: `The server crashed or hung in ${plural(failed.length, 'cycle')}`,
      detail: 'After it started on the crash image the server died (a signal, an assertion, an exit code), stopped answering ' +
        'within the bound, or did not end its clean shutdown with exit code 0, where its scenario expected it to recover.',
      cycleIds: failed,
    });
  }
  for (const s of results.scenarios.filter((x) => x.blind)) alarms.push(blindAlarm(s, results.cycles));
  for (const s of results.scenarios.filter((x) => x.vacuous && x.exercise)) alarms.push(vacuousAlarm(s, results.cycles));
  for (const s of results.scenarios) {
    const alarm = tornWhereAtomicAlarm(s, results.cycles);
    if (alarm) alarms.push(alarm);
  }
  return alarms;
}

function blindAlarm(s: ScenarioSummary, cycles: CycleBrief[]): Alarm {
  return {
    kind: 'blind',
    title: `The rig was blind: negative control "${s.name}" never tore a page`,
    detail: `${plural(s.cyclesRun, 'cycle')} with doublewrite off on a ${formatBytes(s.settings.disk.atomicUnit)}-atomic disk ` +
      'left no torn page in the crash image, so this run cannot show that the rig sees torn pages. ' +
      'Passing results elsewhere in this campaign prove nothing until it does.',
    cycleIds: idsWhere(cycles, (c) => c.scenario === s.name),
  };
}

function vacuousAlarm(s: ScenarioSummary, cycles: CycleBrief[]): Alarm {
  const e = s.exercise!;
  const claim = e.claim === 'doublewrite'
    ? 'an in-use page tore that only an accepted doublewrite copy restores'
    : e.claim === 'rocksdb-writes-in-flight'
      ? "a write into RocksDB's files was in flight at the cut"
      : 'a page-size write was in flight at the cut';
  return {
    kind: 'vacuous',
    title: `Vacuous: "${s.name}" did not exercise what it claims (${describeExercise(e)})`,
    detail: `In only ${e.cycles} of ${plural(e.of, 'judged cycle')} ${claim}; the scenario requires ${Math.round(100 * (e.minShare ?? 0))}%. ` +
      'Its cycles may all have passed, but the pass does not test the claim. Aim the cut (trigger, load, buffer pool) or lower exercise.minShare.',
    cycleIds: idsWhere(cycles, (c) => c.scenario === s.name),
  };
}

function tornWhereAtomicAlarm(s: ScenarioSummary, cycles: CycleBrief[]): Alarm | null {
  if (s.expectation !== 'never-torn') return null;
  const torn = cycles.filter((c) => c.scenario === s.name && c.tornPages > 0);
  if (torn.length === 0) return null;
  const tally = tallyStraddles(torn);
  const straddling = tally.total;
  const named = describeStraddleTargets(tally);
  const pageWrites = torn.reduce((n, c) => n + (c.cut?.stats.pageWrites ?? 0), 0);
  const unit = formatBytes(s.settings.disk.atomicUnit);
  const cause = straddling > 0
    ? `Cause: in the cycles that tore, ${formatCount(straddling)} of ${formatCount(pageWrites)} page writes straddled a ${unit} atomic-unit boundary at the disk${named ? ` (${named})` : ''} ` +
      `(the ${s.settings.disk.fs} filesystem placed pages off ${unit} alignment), so one page write spanned two units and tore.`
    : 'The disk counted no page write straddling an atomic-unit boundary; see the cycles for what tore.';
  return {
    kind: 'torn-where-atomic',
    title: `Pages tore in "${s.name}" although the disk is ${unit}-atomic (${plural(torn.length, 'cycle')})`,
    detail: cause,
    cycleIds: torn.map((c) => c.id),
  };
}

export type ScenarioStatus = 'pass' | 'fail' | 'blind' | 'vacuous' | 'rig-error' | 'not-run';

export const STATUS_TEXT: Record<ScenarioStatus, { icon: string; label: string }> = {
  'pass': { icon: '✓', label: 'held' },
  'fail': { icon: '✗', label: 'FAILED' },
  'blind': { icon: '⚠', label: 'BLIND' },
  'vacuous': { icon: '⚠', label: 'VACUOUS' },
  'rig-error': { icon: '⚙', label: 'rig error' },
  'not-run': { icon: '…', label: 'not run' },
};

/** Worst first, so a grid cell holding several scenarios shows the worst of them. */
export const STATUS_RANK: ScenarioStatus[] = ['blind', 'fail', 'vacuous', 'rig-error', 'not-run', 'pass'];

export function scenarioStatus(s: ScenarioSummary): ScenarioStatus {
  if (s.blind) return 'blind';
  if (contradictedCycles(s) > 0) return 'fail';
  if (s.vacuous) return 'vacuous';
  if (s.cyclesRun === 0) return 'not-run';
  if ((s.verdictCounts['rig-error'] ?? 0) > 0 || s.cyclesRun < s.cyclesPlanned || !s.held) return 'rig-error';
  return 'pass';
}
