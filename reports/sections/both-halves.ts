/**
 * Both halves of "doublewrite off on a 16 KiB-atomic device", per perf scenario: the safety half
 * (torn pages in the same setting's never-torn cycles) next to the benefit half (the off / on
 * write-QPS ratio on the scenario's device profile, with its spread), and the figure that made the
 * claim beside ours.
 */
import { pairRatios, safetyScenarios, type PairRatios } from '../../rig/perf/pair-ratios.js';
import { formatChange, type RatioSpread } from '../../rig/perf/ratio-spread.js';
import { flushingOf } from '../../rig/perf/perf-settings.js';
import type { ScenarioSummary } from '../../rig/results/types.js';
import type { BriefedResults } from '../../rig/results/cycle-brief.js';
import { html, anchorId, type Html } from '../html.js';
import { settingsSummary } from './scenarios.js';

/** The figure the claim was sold with: sysbench oltp_write_only, doublewrite off / on. */
export const SEED_FIGURE = { change: '+47%', device: 'Premium ESSD', detail: 'sysbench oltp_write_only, 4-core instance, 64 threads, 30 tables (300 GB), --rand-type=special --rand-spec-pct=15' };

function safetyText(results: BriefedResults, perf: ScenarioSummary): Html {
  const matching = safetyScenarios(results, perf);
  if (matching.length === 0) return html`<span class="sub">torn pages: not checked here (no never-torn scenario on this setting)</span>`;
  const judged = matching.reduce((n, s) => n + s.cyclesRun - (s.verdictCounts['rig-error'] ?? 0), 0);
  const torn = matching.reduce((n, s) => n + s.tornCycles, 0);
  const names = matching.map((s) => html`<a href="#${anchorId('scenario', s.name)}">${s.name}</a>`);
  const text = torn === 0 ? `torn pages: never in ${judged} cycle${judged === 1 ? '' : 's'}` : `torn pages: in ${torn} of ${judged} cycles`;
  return html`<b class="${torn === 0 ? 'ok' : 'bad'}">${text}</b> <span class="sub">(${names})</span>`;
}

function spreadText(r: RatioSpread): string {
  return `${formatChange(r.median)} median of ${r.pairs.length} pair${r.pairs.length === 1 ? '' : 's'}, ${formatChange(r.min)} to ${formatChange(r.max)}`;
}

function benefitText(perf: ScenarioSummary, ratios: PairRatios): Html {
  if (!ratios.writeQps) return html`<b>write QPS: not measured</b>${ratios.failed ? html` <span class="sub">(${ratios.failed} pair${ratios.failed === 1 ? '' : 's'} failed)</span>` : null}`;
  return html`<b>write QPS: ${formatChange(ratios.writeQps.median)} on profile ${perf.settings.disk.profile}, ${flushingOf(perf.settings)} flushing</b>
<div class="sub">write QPS ${spreadText(ratios.writeQps)}; TPS ${spreadText(ratios.tps!)}; p99 latency ${spreadText(ratios.p99Ms!)}${ratios.failed ? `; ${ratios.failed} pair(s) failed` : ''}</div>`;
}

export function bothHalvesSection(results: BriefedResults): Html | null {
  const perf = results.scenarios.filter((s) => s.settings.perf);
  if (perf.length === 0) return null;
  const rows = perf.map((s) => {
    const ratios = pairRatios((results.perf ?? []).filter((p) => p.scenario === s.name));
    return html`<tr id="${anchorId('perf', s.name)}"><td><b class="name">${s.name}</b><div class="sub">doublewrite off vs on · ${settingsSummary({ ...s.settings, server: { ...s.settings.server, doublewrite: false } })}</div></td>
<td>${safetyText(results, s)}</td><td>${benefitText(s, ratios)}</td>
<td>${SEED_FIGURE.change} on ${SEED_FIGURE.device}<div class="sub">${SEED_FIGURE.detail}</div></td></tr>`;
  });
  return html`<section id="both-halves"><h2>Doublewrite off: safety and benefit</h2>
<table class="both-halves"><thead><tr><th>Setting</th><th>Safety (this campaign)</th><th>Benefit (this campaign)</th><th>Claimed</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
}
