/**
 * The index's cycles: the ones that need a reader (contradicting their expectation, rig errors)
 * listed with their reasons, then every cycle in a table the page's script fills from a compact
 * data block, filtered by verdict, scenario and finding and shown a page of rows at a time, so the
 * index stays small and quick at 10,000 cycles. Each row links to the cycle's own page.
 */
import type { BriefedResults, CycleBrief } from '../../rig/results/cycle-brief.js';
import type { Verdict } from '../../rig/results/types.js';
import { cutScenarios } from '../cut-scenarios.js';
import { cyclePageName } from '../cycle-page.js';
import { VERDICT_LABELS, VERDICT_ORDER } from '../format.js';
import { html, scriptData, type Html } from '../html.js';
import { heldMark, verdictChip } from './verdict-chip.js';

/** Problem cycles listed in the index itself; the rest are a filter away. */
const PROBLEMS_LISTED = 100;

/** 0 held, 1 contradicted, 2 rig error: as the data block and the script say it. */
export function markOf(c: CycleBrief): 0 | 1 | 2 {
  if (c.verdict === 'rig-error') return 2;
  return c.expectationHeld ? 0 : 1;
}

/** The data the script reads: names once, then a row per cycle of indexes into them. */
export interface CycleData {
  pages: string; // the cycle pages' folder, relative to the index
  scenarios: string[];
  verdicts: Verdict[];
  verdictLabels: string[];
  findings: string[];
  /** [id, scenario, verdict, mark, torn pages, finding (-1: none)]; a row's page is
   * cyclePageName(id), which the script makes the same way */
  rows: [string, number, number, number, number, number][];
}

export function cycleData(results: BriefedResults, pages: string): CycleData {
  const scenarios = [...new Set([...cutScenarios(results).map((s) => s.name), ...results.cycles.map((c) => c.scenario)])];
  const verdicts = VERDICT_ORDER.filter((v) => results.cycles.some((c) => c.verdict === v));
  const findings = [...new Set(results.cycles.flatMap((c) => (c.finding ? [c.finding] : [])))].sort();
  const rows = results.cycles.map((c): CycleData['rows'][number] => [
    c.id, scenarios.indexOf(c.scenario), verdicts.indexOf(c.verdict), markOf(c), c.tornPages, c.finding ? findings.indexOf(c.finding) : -1,
  ]);
  return { pages, scenarios, verdicts, verdictLabels: verdicts.map((v) => VERDICT_LABELS[v]), findings, rows };
}

export function cyclesSection(results: BriefedResults, pages: string): Html {
  const data = cycleData(results, pages);
  const href = (id: string) => `${pages}/${encodeURIComponent(cyclePageName(id))}`;
  const problems = results.cycles.filter((c) => markOf(c) !== 0);
  const listed = problems.slice(0, PROBLEMS_LISTED);
  const count = (keep: (c: CycleBrief) => boolean) => results.cycles.filter(keep).length;
  const option = (value: number, label: string, n: number) => html`<option value="${String(value)}">${label} (${n})</option>`;
  return html`<section id="cycles"><h2>Cycles</h2>
<p class="sub">${results.cycles.length} cycle${results.cycles.length === 1 ? '' : 's'}; each has its own page with its torn pages, error log, pending writes and the command that rebuilds its crash image. Link to one with #cycle-&lt;id&gt;: the index sends the reader on to its page.</p>
${problems.length === 0 ? null : html`<h3 id="problem-cycles">Contradicting cycles and rig errors <span class="sub">(${problems.length})</span></h3>
<table class="problems"><thead><tr><th>Cycle</th><th>Scenario</th><th>Verdict</th><th class="num">Torn</th><th>Why</th></tr></thead>
<tbody>${listed.map((c) => html`<tr class="${markOf(c) === 2 ? 'row-rig' : 'row-failed'}"><td class="mono"><a href="${href(c.id)}">${c.id}</a></td><td>${c.scenario}</td><td>${verdictChip(c.verdict)} ${heldMark(c.expectationHeld, c.verdict)}</td><td class="num">${c.tornPages}</td><td>${c.finding ? html`<b>Known finding <span class="mono">${c.finding}</span></b>, which does not fail the campaign: ` : null}${c.error ?? c.reason}</td></tr>`)}</tbody></table>
${problems.length > listed.length ? html`<p class="sub">and ${problems.length - listed.length} more: choose "only problems" below.</p>` : null}`}
<h3>Every cycle</h3>
<div class="toolbar filters" role="search">
<label>Verdict <select data-filter="verdict"><option value="">all</option>${data.verdicts.map((v, i) => option(i, VERDICT_LABELS[v], count((c) => c.verdict === v)))}</select></label>
<label>Scenario <select data-filter="scenario"><option value="">all</option>${data.scenarios.map((s, i) => option(i, s, count((c) => c.scenario === s)))}</select></label>
${data.findings.length ? html`<label>Finding <select data-filter="finding"><option value="">all</option>${data.findings.map((f, i) => option(i, f, count((c) => c.finding === f)))}</select></label>` : null}
<label><input type="checkbox" data-filter="problems"> only problems (${problems.length})</label>
<span class="sub" id="cycle-count" aria-live="polite"></span></div>
<table class="cycle-list"><thead><tr><th>Cycle</th><th>Scenario</th><th>Verdict</th><th class="num">Torn</th><th>Finding</th></tr></thead><tbody id="cycle-rows"></tbody></table>
<p><button type="button" data-action="more" hidden>Show more</button></p>
<noscript><p class="sub">The list of every cycle needs the page's script; the problem cycles above and each cycle's page do not.</p></noscript>
<script type="application/json" id="cycle-data">${scriptData(data)}</script>
</section>`;
}
