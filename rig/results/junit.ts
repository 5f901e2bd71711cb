/**
 * junit.xml for CI: a testsuite per scenario, a testcase per cycle, a <failure> for each cycle
 * that contradicted its expectation, an <error> for each rig error (not the database's fault),
 * for a negative control one more testcase, "reproduced a torn page", that fails when the
 * scenario was blind, and for a scenario with a claim to exercise (doublewrite restores, page
 * writes in flight) one more, "exercised its claim", that fails when the scenario was vacuous.
 */
import { FINDINGS, knownFinding } from '../findings/catalog.js';
import { doublewriteMode } from './doublewrite-mode.js';
import { describeExercise } from './exercise-claim.js';
import { contradicts, needsTear } from './expectation.js';
import type { CampaignResults, CycleRecord, ScenarioSummary } from './types.js';
import { escapeXml as x } from './xml-escape.js';

export const JUNIT_FILE = 'junit.xml';

export function renderJunit(results: CampaignResults): string {
  const suites = results.scenarios.map((summary) => {
    const cycles = results.cycles.filter((c) => c.scenario === summary.name);
    const counts = emptyCounts();
    const cases = cycles.map((c) => countCase(counts, cycleCase(results.campaign, summary, c), cycleMs(c)));
    for (const c of closingCases(results.campaign, summary)) cases.push(countCase(counts, c, 0));
    return { summary, counts, cases };
  });
  return [
    documentStart(results.campaign, totalCounts(suites.map((s) => s.counts))),
    ...suites.map((s) => [suiteStart(s.summary, s.counts), ...s.cases.map((c) => c.xml), SUITE_END].join('\n')),
    DOCUMENT_END,
    '',
  ].join('\n');
}

/** A suite's figures, as its <testsuite> element states them. */
export interface SuiteCounts { tests: number; failures: number; errors: number; time: number }

export function emptyCounts(): SuiteCounts {
  return { tests: 0, failures: 0, errors: 0, time: 0 };
}

/** Counts `c` (of `ms` milliseconds) into `counts`; returns `c`. Time is summed in case order. */
export function countCase(counts: SuiteCounts, c: Case, ms: number): Case {
  counts.tests += 1;
  if (c.kind === 'failure') counts.failures += 1;
  if (c.kind === 'error') counts.errors += 1;
  counts.time += ms;
  return c;
}

/** The document's figures: its suites' summed, in suite order. */
export function totalCounts(suites: SuiteCounts[]): SuiteCounts {
  return suites.reduce((t, s) => ({ tests: t.tests + s.tests, failures: t.failures + s.failures, errors: t.errors + s.errors, time: t.time + s.time }), emptyCounts());
}

/** The document's first lines, up to its suites. */
export function documentStart(campaign: string, totals: SuiteCounts): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${x(campaign)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${seconds(totals.time)}">`,
  ].join('\n');
}

export const DOCUMENT_END = '</testsuites>';

/** A suite's first lines, up to its cases. */
export function suiteStart(summary: ScenarioSummary, counts: SuiteCounts): string {
  const s = summary.settings;
  const properties = [
    ['expect', summary.expectation], ['doublewrite', doublewriteMode(s.server.doublewrite)], ['pageSize', String(s.server.pageSize)],
    ['flushMethod', s.server.flushMethod], ['atomicUnit', String(s.disk.atomicUnit)], ['fs', s.disk.fs], ['runtime', s.runtime],
  ].map(([name, value]) => `      <property name="${x(name!)}" value="${x(value!)}"/>`);
  return [
    `  <testsuite name="${x(summary.name)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="0" time="${seconds(counts.time)}">`,
    '    <properties>', ...properties, '    </properties>',
  ].join('\n');
}

export const SUITE_END = '  </testsuite>';

/** The cases after a suite's cycles: the negative control's and the claim's, once every cycle has run. */
export function closingCases(campaign: string, summary: ScenarioSummary): Case[] {
  const cases: Case[] = [];
  const complete = summary.cyclesRun >= summary.cyclesPlanned;
  if (needsTear(summary.expectation) && complete) cases.push(renderControl(campaign, summary));
  if (summary.exercise?.minShare != null && summary.exercise.of > 0 && complete) cases.push(renderExercise(campaign, summary));
  return cases;
}

export interface Case { xml: string; kind: 'pass' | 'failure' | 'error' }

/** A cycle's testcase. */
export function cycleCase(campaign: string, summary: ScenarioSummary, c: CycleRecord): Case {
  const torn = c.tornPagesBefore.length;
  const open = `    <testcase classname="${x(`${campaign}.${summary.name}`)}" name="${x(c.id)}" time="${seconds(cycleMs(c))}">`;
  const out = `      <system-out>${x(`verdict: ${c.verdict}\ntorn pages before recovery: ${torn}\nreason: ${c.reason}\nrepro: ${c.repro}`)}</system-out>`;
  if (c.verdict === 'rig-error') {
    const message = c.error ?? c.reason;
    return { kind: 'error', xml: [open, `      <error type="rig-error" message="${x(firstLine(message))}">${x(message)}</error>`, out, '    </testcase>'].join('\n') };
  }
  const finding = knownFinding((summary.findings ?? []).map((f) => FINDINGS[f.id]), c);
  if (contradicts(summary.expectation, c.verdict, torn) && finding) {
    const known = `known finding ${finding.id} (${finding.doc}): ${finding.title}`;
    return { kind: 'pass', xml: [open, out.replace('</system-out>', `${x(`\n${known}`)}</system-out>`), '    </testcase>'].join('\n') };
  }
  if (contradicts(summary.expectation, c.verdict, torn)) {
    const message = `${c.verdict} contradicts ${summary.expectation}: ${firstLine(c.reason)}`;
    return { kind: 'failure', xml: [open, `      <failure type="${x(c.verdict)}" message="${x(message)}">${x(`${message}\n${c.reason}`)}</failure>`, out, '    </testcase>'].join('\n') };
  }
  return { kind: 'pass', xml: [open, out, '    </testcase>'].join('\n') };
}

function renderControl(campaign: string, summary: ScenarioSummary): Case {
  const open = `    <testcase classname="${x(`${campaign}.${summary.name}`)}" name="negative control reproduced a torn page" time="0">`;
  if (!summary.blind) return { kind: 'pass', xml: `${open}\n    </testcase>` };
  const message = `blind: no cycle of ${summary.name} tore a page in ${summary.cyclesRun} cycles; the rig cannot show it would see a torn page`;
  return { kind: 'failure', xml: [open, `      <failure type="blind" message="${x(message)}">${x(message)}</failure>`, '    </testcase>'].join('\n') };
}

function renderExercise(campaign: string, summary: ScenarioSummary): Case {
  const e = summary.exercise!;
  const open = `    <testcase classname="${x(`${campaign}.${summary.name}`)}" name="exercised its claim" time="0">`;
  const out = `      <system-out>${x(`${describeExercise(e)}; needs ${Math.round(100 * e.minShare!)}%`)}</system-out>`;
  if (!summary.vacuous) return { kind: 'pass', xml: [open, out, '    </testcase>'].join('\n') };
  const message = summary.failures.find((f) => f.startsWith('vacuous:')) ?? `vacuous: ${describeExercise(e)}`;
  return { kind: 'failure', xml: [open, `      <failure type="vacuous" message="${x(firstLine(message))}">${x(message)}</failure>`, out, '    </testcase>'].join('\n') };
}

export function cycleMs(c: CycleRecord): number {
  return Object.values(c.timings).reduce((sum, ms) => sum + (ms ?? 0), 0);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
