/** A cycle's scenario settings, seed and evidence identifiers as a definition list. */
import { doublewriteMode } from '../../../rig/results/doublewrite-mode.js';
import { describeDevice } from '../../../rig/results/device-text.js';
import { showMix } from '../../../rig/load/load-mix.js';
import { ibdPageZeroWrites, lifecyclePageZeroWrites } from '../../../rig/results/page-zero.js';
import type { CycleRecord } from '../../../rig/results/types.js';
import { blocksDigestName, digestBlockOf } from '../../../rig/results/crash-image-digest.js';
import { formatBytes, formatStorage } from '../../format.js';
import { html, anchorId, type Html } from '../../html.js';

function triggerText(cycle: CycleRecord): string {
  const t = cycle.settings.disk.trigger;
  switch (t.kind) {
    case 'armed': return `armed (>= ${t.pendingPageWrites} pages pending in page writes)`;
    case 'after-writes': return `after ${t.writes} writes`;
    case 'at-time': return `at ${t.ms} ms`;
    case 'manual': return 'manual';
  }
}

export function cycleSettingsBlock(cycle: CycleRecord): Html {
  const { server, disk, load } = cycle.settings;
  const rows: [string, string][] = [
    ['seed', String(cycle.seed)],
    ['doublewrite', doublewriteMode(server.doublewrite)],
    ['page size', formatBytes(server.pageSize)],
    ['flush method', server.flushMethod],
    ['buffer pool / redo', `${server.bufferPool} / ${server.redoSize}`],
    ['device profile', describeDevice(disk)],
    ['atomic unit', formatBytes(disk.atomicUnit)],
    ['filesystem', disk.fs],
    ['trigger', triggerText(cycle)],
    ['disk cache bound', formatBytes(disk.journalMaxBytes)],
    ['load', `${load.kind}, ${load.connections} connections, ${load.tables} x ${load.rows} rows${load.mix ? `; mix ${showMix(load.mix)}` : ''}`],
    ['runtime', cycle.settings.runtime === 'docker' ? `docker ${cycle.settings.image ?? ''}` : 'local'],
  ];
  if (cycle.server) rows.push(['server', cycle.server.version], ['InnoDB options', cycle.server.innodb.join(' ')]);
  return html`<dl class="kv">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}
${cycle.crashImageBlocksSha256 ? html`<dt>crash image ${blocksDigestName(digestBlockOf(cycle))}</dt><dd class="mono hash">${cycle.crashImageBlocksSha256}</dd>` : html`<dt>crash image sha256</dt><dd class="mono hash">${cycle.crashImageSha256 ?? '—'}</dd>`}
<dt>evidence</dt><dd class="mono">${cycle.evidenceDir ?? 'not kept'}</dd></dl>`;
}

export function ledgerBlock(cycle: CycleRecord): Html {
  const l = cycle.ledger;
  if (l.error) return html`<p><b class="bad">✗ the server could not read the ledger:</b> <span class="mono">${l.error}</span>. ${l.acked} commits acknowledged.</p>`;
  if (!l.checked) return html`<p>Ledger not checked${l.note ? html`: ${l.note}` : null}. ${l.acked} commits acknowledged.</p>`;
  return html`<p>${l.missing === 0
    ? html`<span class="ok">✓ all ${l.acked} acknowledged commits present</span>`
    : html`<b class="bad">✗ ${l.missing} of ${l.acked} acknowledged commits missing</b>`}${l.note ? html` <span class="sub">(${l.note})</span>` : null}</p>${stepsBlock(cycle)}`;
}

/** The lifecycle steps (churn, alter, partitions, bulk) and the page-0 writes they aimed at. */
function stepsBlock(cycle: CycleRecord): Html | null {
  const steps = cycle.ledger.steps;
  if (!steps) return null;
  const pageZero = cycle.pageZeroWrites
    ? html` Writes pending on page 0 of an .ibd at the cut: ${ibdPageZeroWrites(cycle)} (${lifecyclePageZeroWrites(cycle)} on the lifecycle tables).`
    : null;
  const held = steps.missing === 0
    ? html`<span class="ok">✓ all ${steps.acked} acknowledged lifecycle steps in effect</span>`
    : html`<b class="bad">✗ ${steps.missing} of ${steps.acked} acknowledged lifecycle steps undone</b>`;
  return html`<p>${held}.${pageZero}</p>${steps.lost.length ? html`<ul class="mono">${steps.lost.slice(0, 20).map((line) => html`<li>${line}</li>`)}</ul>` : null}`;
}

export function reproBlock(cycle: CycleRecord): Html {
  const id = anchorId('repro', cycle.id);
  return html`<div class="repro"><pre class="cmd" id="${id}">${cycle.repro}</pre><button type="button" class="copy" data-copy="${id}">Copy</button></div>
${evidenceLine(cycle)}`;
}

/** Whether the crash image was kept for repro, and why (or why not). */
function evidenceLine(cycle: CycleRecord): Html {
  const e = cycle.evidence;
  if (cycle.evidenceDir !== null) {
    return html`<p class="sub evidence">Evidence kept in <span class="mono">${cycle.evidenceDir}</span>${e ? html`, ${formatStorage(e.bytes)}: ${e.why}` : null}.</p>`;
  }
  return html`<p class="sub evidence">No evidence kept${e ? html`: ${e.why}` : null}; repro rebuilds the image only from kept evidence.</p>`;
}
