/**
 * "Since earlier runs": what the history store (`rig history add`) says of this run held against
 * the ones filed before it: the changes first (new ones, then those the run before had too), then
 * per scenario each rate over the runs read with its 95% interval, when it was first and last seen,
 * and the servers that ran which runs. Only in a report rendered with `--history`.
 */
import { changeLine } from '../../rig/history/comparison-lines.js';
import { seenLabel, serversText, type HistoryView, type Seen } from '../../rig/history/history-view.js';
import { showRate } from '../../rig/history/rate-interval.js';
import { formatIso } from '../format.js';
import { html, type Html } from '../html.js';

const seenText = (x: Seen, filed: number) =>
  x.first ? `run ${x.first.run} (${formatIso(x.first.startedAt)}) to run ${x.last!.run} (${formatIso(x.last!.startedAt)}), in ${x.runsWith} of ${filed}` : 'never';

export function historySection(view: HistoryView | undefined): Html | null {
  if (!view) return null;
  const earlier = view.runs.length - 1;
  const lead = earlier === 0
    ? 'This is the first run of the campaign filed: there is nothing yet to hold it against.'
    : `This run held against the ${earlier} filed before it (of ${view.filed} in the store), pooled: ${view.changes.length === 0 ? 'nothing new moved.' : `${view.changes.length} change${view.changes.length === 1 ? '' : 's'}.`}`;
  const changes = [...view.changes.map((c) => ({ c, still: false })), ...view.standing.map((c) => ({ c, still: true }))];
  return html`<section id="history"><h2>Since earlier runs</h2>
<p>${lead} A rate moved when each side's rate lies outside the other's 95% interval.</p>
${changes.length ? html`<ul class="history-changes">${changes.map(({ c, still }) => html`<li class="${still ? 'still' : 'new'}">${still ? 'still, as the run before: ' : null}${changeLine(c)}</li>`)}</ul>` : null}
<table class="history"><thead><tr><th>Scenario</th><th>What</th><th class="num">Over the last ${view.runs.length} run${view.runs.length === 1 ? '' : 's'}</th><th>Seen</th></tr></thead>
<tbody>${view.scenarios.map((s) => s.seen.map((x, i) => html`<tr>${i === 0 ? html`<td rowspan="${s.seen.length}"><b>${s.scenario}</b><br><small>${serversText(s)}</small></td>` : null}<td>${seenLabel(x)}</td><td class="num">${showRate(x.rate)}</td><td>${seenText(x, view.filed)}</td></tr>`))}</tbody></table></section>`;
}
