/**
 * The write-ahead order the disk saw (rig/cycle/write-order.ts): the checkpoint durable before the
 * cut, and each page whose pending version it already covered. An ordering violation observed at
 * the device, shown beside the verdict, never instead of it.
 */
import type { CycleRecord, WriteOrderCheck, WriteOrderViolation } from '../../../rig/results/types.js';
import { formatBytes, formatCount } from '../../format.js';
import { html, type Html } from '../../html.js';

const MAX_ROWS = 16;

const ms = (us: number): string => `${(us / 1000).toFixed(1)} ms`;

function freeCell(v: WriteOrderViolation): Html {
  if (v.free === null) return html`<span class="muted">unknown</span>`;
  return v.free ? html`<span class="muted">free</span>` : html`<b>in use</b>`;
}

function lateCell(v: WriteOrderViolation, w: WriteOrderCheck): string {
  const durable = w.device?.checkpointDurableAt;
  return v.arrivedUs !== undefined && durable ? `+${ms(v.arrivedUs - durable.atUs)}` : '—';
}

function deviceLine(w: WriteOrderCheck): Html | null {
  const d = w.device;
  if (!d) return html`<p class="sub muted">The disk kept no order log for this cycle.</p>`;
  const durable = d.checkpointDurableAt;
  const write = d.checkpointWrite ? `The checkpoint block reached the disk as write ${d.checkpointWrite.seq}` : 'The checkpoint block reached the disk before the order log’s window';
  const by = !durable ? '' : durable.by === 'flush' ? `; flush #${durable.flush} made it durable` : durable.by === 'complete' ? '; it was durable as it completed (a durable cache)' : '; the journal bound retired it as durable';
  const since = d.flushesSinceCheckpoint === null ? '' : `, and ${formatCount(d.flushesSinceCheckpoint)} more flushes completed`;
  const cut = durable && d.cutUs !== null ? ` before the cut ${ms(d.cutUs - durable.atUs)} later` : '';
  return html`<p class="sub">${write}${by}${since}${cut}. The journal bound retired ${formatCount(d.retired)} writes in the log’s window (${formatCount(d.events)} events).</p>`;
}

export function writeOrderBlock(cycle: CycleRecord): Html {
  const w = cycle.writeOrder;
  if (!w) return html`<p class="muted">Not checked (the cycle did not reach the scan, or the record predates the check).</p>`;
  if (w.checkpointLsn === null) return html`<p class="muted">Not checked: ${w.why ?? 'no checkpoint'}.</p>`;
  const summary = html`<p>Checkpoint durable before the cut: LSN <b>${w.checkpointLsn}</b>. ${formatCount(w.pendingVersions)} pending versions of ${formatCount(w.pagesChecked)} pages checked.</p>`;
  if (!w.violationCount) return html`${summary}<p class="ok">No pending page version older than the durable checkpoint.</p>`;
  return html`${summary}
<p class="bad"><b>Ordering violation observed at the device</b>: ${formatCount(w.violationCount)} page(s) had a pending (unflushed) version older than the checkpoint that was already durable — a change the checkpoint covers was not durable when the checkpoint was. Who reordered is not decided here: the server, the page cache or the disk path.</p>
${deviceLine(w)}
<table class="compact"><thead><tr><th>file</th><th class="num">page</th><th class="num">durable LSN</th><th class="num">pending LSN</th><th class="num">write seq</th><th class="num">length</th><th>page</th><th class="num" title="when the write reached the disk, after the flush that made the checkpoint durable">arrived</th></tr></thead><tbody>
${w.violations.slice(0, MAX_ROWS).map((v) => html`<tr><td class="mono">${v.file}</td><td class="num">${v.page}</td><td class="num">${v.durableLsn}</td><td class="num">${v.pendingLsn}</td><td class="num">${v.seq}</td><td class="num">${formatBytes(v.length)}</td><td>${freeCell(v)}${v.unwritten ? ' (unwritten extent)' : ''}</td><td class="num">${lateCell(v, w)}</td></tr>`)}
</tbody></table>
${w.violationCount > Math.min(MAX_ROWS, w.violations.length) ? html`<p class="sub">${w.violationCount - Math.min(MAX_ROWS, w.violations.length)} more not shown${w.violationCount > w.violations.length ? ` (the record lists the first ${w.violations.length})` : ''}.</p>` : null}`;
}
