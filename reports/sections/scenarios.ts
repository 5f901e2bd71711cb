/** Per scenario: what it expects, how many cycles ran, what they found, and whether it held. */
import { doublewriteMode } from '../../rig/results/doublewrite-mode.js';
import { describeDevice } from '../../rig/results/device-text.js';
import type { ScenarioSettings, ScenarioSummary } from '../../rig/results/types.js';
import type { BriefedResults, CycleBrief } from '../../rig/results/cycle-brief.js';
import { EXPECTATION_TEXT, VERDICT_ORDER, formatCount, formatUnit } from '../format.js';
import { html, anchorId, type Html } from '../html.js';
import { describeExercise, isVacuous } from '../../rig/results/exercise-claim.js';
import { STATUS_TEXT, scenarioStatus } from '../outcome.js';
import { describeStraddleTargets, straddleIsBad, tallyStraddles } from '../straddles.js';
import { verdictChip } from './verdict-chip.js';
import { cutScenarios } from '../cut-scenarios.js';

export function settingsSummary(s: ScenarioSettings): string {
  return [
    s.server.engine === 'rocksdb' ? 'RocksDB tables' : null,
    `doublewrite ${doublewriteMode(s.server.doublewrite)}`,
    `atomic ${formatUnit(s.disk.atomicUnit)}`,
    `profile ${describeDevice(s.disk)}`,
    s.disk.fs,
    `page ${formatUnit(s.server.pageSize)}`,
    s.server.flushMethod,
    s.server.flushing ? `${s.server.flushing} flushing` : null,
    s.runtime === 'docker' ? `docker ${s.image ?? ''}`.trim() : null,
  ].filter(Boolean).join(' · ');
}

export function scenariosSection(results: BriefedResults): Html {
  return html`<section id="scenarios"><h2>Scenarios</h2>
<table class="scenarios"><thead><tr><th>Result</th><th>Scenario</th><th>Expectation</th><th class="num">Cycles</th><th class="num">Torn</th><th>Exercised</th><th>Verdicts</th></tr></thead>
<tbody>${cutScenarios(results).map((s) => scenarioRow(s, results.cycles.filter((c) => c.scenario === s.name)))}</tbody></table></section>`;
}

function scenarioRow(s: ScenarioSummary, cycles: CycleBrief[]): Html {
  const status = scenarioStatus(s);
  const text = STATUS_TEXT[status];
  return html`<tr id="${anchorId('scenario', s.name)}" class="st-${status}">
<td><span class="status status-${status}">${text.icon} ${text.label}</span></td>
<td><b class="name">${s.name}</b><div class="sub">${settingsSummary(s.settings)}</div></td>
<td>${EXPECTATION_TEXT[s.expectation]}</td>
<td class="num">${s.cyclesRun}${s.cyclesRun === s.cyclesPlanned ? null : html`<span class="sub"> / ${s.cyclesPlanned}</span>`}</td>
<td class="num">${s.tornCycles}<span class="sub"> / ${s.cyclesRun}</span></td>
<td class="exercised">${exercisedCell(s)}</td>
<td>${VERDICT_ORDER.filter((v) => (s.verdictCounts[v] ?? 0) > 0).map((v) => verdictChip(v, s.verdictCounts[v]))}
${(s.findings ?? []).map((f) => html`<p class="finding">Known finding <span class="mono">${f.id}</span> (${f.doc}): ${f.title}; hit in <b>${f.hits}</b> of ${f.of} cycles, which do not fail the campaign.</p>`)}
${s.failures.length > 0 ? html`<ul class="failures">${s.failures.slice(0, 5).map((f) => html`<li>${f}</li>`)}${s.failures.length > 5 ? html`<li>… ${s.failures.length - 5} more</li>` : null}</ul>` : null}
${straddleNote(s, cycles)}</td></tr>`;
}

/** "doublewrite exercised in 3 of 4 cycles", marked when it falls short of the scenario's share. */
function exercisedCell(s: ScenarioSummary): Html {
  if (!s.exercise) return html`<span class="sub">—</span>`;
  const short = isVacuous(s.exercise);
  const need = s.exercise.minShare === null ? null : html`<div class="sub">needs ${Math.round(100 * s.exercise.minShare)}%</div>`;
  return html`<span class="${short ? 'straddle-bad' : ''}">${describeExercise(s.exercise)}</span>${need}`;
}

/** Where the disk is atomic at the page size, say how many page writes crossed a unit boundary. */
function straddleNote(s: ScenarioSummary, cycles: CycleBrief[]): Html | null {
  if (s.settings.disk.atomicUnit < s.settings.server.pageSize) return null;
  const pageWrites = cycles.reduce((n, c) => n + (c.cut?.stats.pageWrites ?? 0), 0);
  if (pageWrites === 0) return null;
  const tally = tallyStraddles(cycles);
  const named = describeStraddleTargets(tally);
  return html`<p class="sub ${straddleIsBad(tally) ? 'straddle-bad' : ''}">${formatCount(tally.total)} of ${formatCount(pageWrites)} page writes in its ${cycles.length === 1 ? 'cycle' : `${formatCount(cycles.length)} cycles`} straddled a ${formatUnit(s.settings.disk.atomicUnit)} unit boundary${named ? `: ${named}` : ''}</p>`;
}
