/** One crash cycle, whole, as its own page shows it: an open block, every part of its evidence. */
import { exercisedOf } from '../../../rig/results/exercise-claim.js';
import { isInUse } from '../../../rig/results/exercised.js';
import type { CycleRecord } from '../../../rig/results/types.js';
import { EXPECTATION_TEXT } from '../../format.js';
import { html, anchorId, type Html } from '../../html.js';
import { phaseBar } from '../../charts/phase-bar.js';
import { throughputChart } from '../../charts/throughput-chart.js';
import { heldMark, verdictChip } from '../verdict-chip.js';
import { cycleSettingsBlock, ledgerBlock, reproBlock } from './cycle-settings.js';
import { diskStatsBlock, straddleCause } from './disk-stats.js';
import { logExcerpt, type LogSource } from './log-excerpt.js';
import { pendingWritesBlock } from './pending-writes.js';
import { serverRunBlock } from './server-run.js';
import { afterRecoveryBlock, tornPagesBlock } from './torn-pages.js';
import { writeOrderBlock } from './write-order.js';

function part(title: string, body: Html, wide = false): Html {
  return html`<section class="part${wide ? ' wide' : ''}"><h4>${title}</h4>${body}</section>`;
}

const MARKS = {
  held: { icon: '✓', css: 'held-yes', title: 'as expected' },
  contradicted: { icon: '✗', css: 'held-no', title: 'contradicts expectation' },
  rig: { icon: '⚙', css: 'held-rig', title: 'rig error: no verdict' },
};

function markOf(cycle: CycleRecord): keyof typeof MARKS {
  if (cycle.verdict === 'rig-error') return 'rig';
  return cycle.expectationHeld ? 'held' : 'contradicted';
}

export function cycleSummaryLine(cycle: CycleRecord): Html {
  const torn = cycle.tornPagesBefore.length;
  const mark = MARKS[markOf(cycle)];
  return html`<summary><span class="held-icon ${mark.css}" title="${mark.title}">${mark.icon}</span>
<span class="cycle-id">${cycle.id}</span> ${verdictChip(cycle.verdict)} <span class="torn-count">${torn} torn</span> <span class="reason">${cycle.reason}</span></summary>`;
}

/** What the cycle exercised, from its evidence (records saved before it existed are recounted). */
function exercisedLine(cycle: CycleRecord): Html | null {
  if (cycle.verdict === 'rig-error' && !cycle.exercised) return null;
  const e = exercisedOf(cycle);
  // a record older than the doublewrite evidence cannot say which torn pages had a copy
  const unknown = cycle.tornPagesBefore.some((p) => isInUse(p) && p.doublewrite === undefined);
  const inUse = unknown
    ? html`${e.tornDoublewrite + e.tornRedo} in-use torn pages (the record predates the doublewrite evidence: which had an accepted copy is not known)`
    : html`${e.tornDoublewrite} in-use torn pages with an accepted doublewrite copy, ${e.tornRedo} without one (left to the redo log)`;
  return html`<p class="sub exercised">Exercised: ${inUse}, ${e.tornFreed} freed; ${e.pageWritesInFlight} page writes in flight at the cut (${e.pageWritesInFlightStraddling} straddling a unit).</p>`;
}

/** Where an explore state came from: its recording, barrier and pick. */
/** Where a cycle page's links lead: the index's scenario rows, the other cycles' pages. */
export interface CycleLinks {
  scenario(name: string): string;
  cycle(id: string): string;
}

function exploreLine(cycle: CycleRecord, links: CycleLinks): Html | null {
  const e = cycle.explore;
  if (!e) return null;
  const score = e.score !== undefined ? html`, score ${e.score}` : null;
  const duplicate = e.duplicateOf ? html`; the same crash image as <a href="${links.cycle(e.duplicateOf)}">${e.duplicateOf}</a>, judged once` : null;
  return html`<p class="sub explore">Explored state ${cycle.cycle} of ${e.of} from the recording of ${e.run} (seed ${e.runSeed}): the crash ${e.barrierKind === 'cut' ? 'at the cut, after the last flush' : html`at flush ${e.barrier}`}, ${e.durableWrites} writes durable, one of ${e.barriers} barriers with writes pending; picked ${e.pick}${score}${duplicate}.</p>`;
}

export function cycleDetails(cycle: CycleRecord, log: LogSource | null, links: CycleLinks): Html {
  const id = anchorId('cycle', cycle.id);
  const css = { held: 'cycle-held', contradicted: 'cycle-failed', rig: 'cycle-rig' }[markOf(cycle)];
  return html`<details class="cycle ${css}" id="${id}" data-verdict="${cycle.verdict}" open>
${cycleSummaryLine(cycle)}
<div class="cycle-body">
<div class="cycle-verdict"><p>${verdictChip(cycle.verdict)} ${heldMark(cycle.expectationHeld, cycle.verdict)} <a class="permalink" href="${links.cycle(cycle.id)}" title="link to this cycle">#</a></p>
<p class="reason-full">${cycle.reason}</p>
${cycle.error ? html`<p class="bad mono">${cycle.error}</p>` : null}
<p class="sub">Scenario <a href="${links.scenario(cycle.scenario)}">${cycle.scenario}</a>, ${cycle.explore ? 'state' : 'cycle'} ${cycle.cycle}, seed ${cycle.seed}; expects ${EXPECTATION_TEXT[cycle.expectation]}.</p>
${exploreLine(cycle, links)}
${straddleCause(cycle)}
${exercisedLine(cycle)}
<h4>Reproduce this crash image</h4>${reproBlock(cycle)}</div>
<div class="parts">
${part('Torn pages', tornPagesBlock(cycle), true)}
${part('Write order at the device', writeOrderBlock(cycle), true)}
${part('Error log', logExcerpt(log, cycle.errorLog.excerpt, cycle.errorLog.events, cycle.tornPagesBefore), true)}
${part('After recovery', html`${afterRecoveryBlock(cycle)}<h5>Ledger</h5>${ledgerBlock(cycle)}`)}
${part('Recovery server', serverRunBlock(cycle))}
${part('Load throughput', throughputChart(cycle.throughput, cycle.cut?.atMs ?? null))}
${part('Pending writes at the cut', pendingWritesBlock(cycle.cut, cycle.pendingWrites))}
${part(cycle.explore ? 'Disk counters (recording start to barrier)' : 'Disk counters (arming to cut)', diskStatsBlock(cycle))}
${part('Phase timings', phaseBar(cycle.timings))}
${part('Settings', cycleSettingsBlock(cycle))}
</div></div></details>`;
}
