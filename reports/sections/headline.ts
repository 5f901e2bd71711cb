/** The top of the report: the campaign verdict in one line, then the alarms that outrank all else. */
import type { BriefedResults } from '../../rig/results/cycle-brief.js';
import { cyclePageName } from '../cycle-page.js';
import { html, type Html } from '../html.js';
import { campaignAlarms, campaignHeadline, type Alarm } from '../outcome.js';

const ICONS = { 'pass': '✓', 'fail': '✗', 'rig-error': '⚙', 'running': '…' } as const;

/** `pages`: the folder of the cycles' pages, which the alarms link to. */
export function headlineSection(results: BriefedResults, pages: string): Html {
  const headline = campaignHeadline(results);
  const alarms = campaignAlarms(results);
  return html`<header class="top">
<p class="eyebrow">powercut-rig campaign report</p>
<h1>${results.campaign}</h1>
<p id="verdict" class="verdict verdict-${headline.status}"><span class="verdict-label">${ICONS[headline.status]} ${headline.label}</span> <span class="verdict-why">${headline.why}</span></p>
${alarms.length > 0 ? html`<section class="alarms" aria-label="Alarms">${alarms.map((a) => alarmBox(a, pages))}</section>` : null}
</header>`;
}

function alarmBox(alarm: Alarm, pages: string): Html {
  const shown = alarm.cycleIds.slice(0, 12);
  const more = alarm.cycleIds.length - shown.length;
  return html`<div class="alarm alarm-${alarm.kind}" role="alert">
<p class="alarm-title"><span class="alarm-icon">⚠</span> ${alarm.title}</p>
<p>${alarm.detail}</p>
${shown.length > 0 ? html`<p class="alarm-cycles">Cycles: ${shown.map((id) => html`<a href="${pages}/${encodeURIComponent(cyclePageName(id))}">${id}</a> `)}${more > 0 ? html`and ${more} more` : null}</p>` : null}
</div>`;
}
