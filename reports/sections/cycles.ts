/** Every cycle, grouped by scenario, each an expandable block; contradicting cycles marked. */
import type { CampaignResults } from '../../rig/results/types.js';
import { html, type Html } from '../html.js';
import { cycleDetails } from './cycle/cycle-details.js';
import type { LogSource } from './cycle/log-excerpt.js';
import { cutScenarios } from '../cut-scenarios.js';

export function cyclesSection(results: CampaignResults, evidence: ReadonlyMap<string, LogSource>): Html {
  const failing = results.cycles.filter((c) => !c.expectationHeld).length;
  const names = [...new Set([...cutScenarios(results).map((s) => s.name), ...results.cycles.map((c) => c.scenario)])];
  return html`<section id="cycles"><h2>Cycles</h2>
<div class="toolbar"><button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button>
<button type="button" data-action="only-failing" aria-pressed="false">Only problems (${failing})</button>
<span class="sub">Link to a cycle with #cycle-&lt;id&gt;; it opens on arrival.</span></div>
${names.map((name) => {
    const cycles = results.cycles.filter((c) => c.scenario === name);
    return cycles.length === 0 ? null : html`<h3>${name} <span class="sub">(${cycles.length} cycle${cycles.length === 1 ? '' : 's'})</span></h3>${cycles.map((c) => cycleDetails(c, evidence.get(c.id) ?? null))}`;
  })}
</section>`;
}
