/**
 * What the power-fail disk counted from arming to the cut. Where pages tore on a disk whose atomic
 * unit is at least the page size, name the cause: page writes that straddled a unit boundary.
 */
import type { CycleRecord } from '../../../rig/results/types.js';
import { formatBytes, formatCount, formatPercent } from '../../format.js';
import { html, type Html } from '../../html.js';
import { describeStraddleTargets, straddleIsBad, tallyStraddles } from '../../straddles.js';

export function straddleCause(cycle: CycleRecord): Html | null {
  const { disk, server } = cycle.settings;
  const stats = cycle.cut?.stats;
  if (!stats || disk.atomicUnit < server.pageSize || cycle.tornPagesBefore.length === 0) return null;
  const unit = formatBytes(disk.atomicUnit);
  if (stats.pageWritesStraddling === 0) {
    return html`<p class="cause">Pages tore on a ${unit}-atomic disk, yet the disk counted no page write straddling a unit boundary.</p>`;
  }
  return html`<p class="cause"><b>Cause:</b> ${formatCount(stats.pageWritesStraddling)} of ${formatCount(stats.pageWrites)} page writes (${formatPercent(stats.pageWritesStraddling, stats.pageWrites)}) straddled a ${unit} atomic-unit boundary: the ${disk.fs} filesystem placed those pages off ${unit} alignment on the device, so each spanned two atomic units and could tear. An aligned layout (ext4 bigalloc 16k, xfs su=16k or 16k blocks) prevents this.</p>`;
}

function straddlingValue(cycle: CycleRecord): Html {
  const tally = tallyStraddles([cycle]);
  const bad = straddleIsBad(tally) && cycle.settings.disk.atomicUnit >= cycle.settings.server.pageSize;
  const named = describeStraddleTargets(tally);
  return html`<dd class="${bad ? 'bad' : ''}">${formatCount(tally.total)}${named ? ` (${named})` : ''}</dd>`;
}

/** A size bucket's key as a size: '16384' is 16 KiB, '>1048576' (the helper's last bucket) > 1 MiB. */
function sizeLabel(key: string): string {
  const m = /^(>?)(\d+)$/.exec(key);
  return m ? `${m[1] ? '> ' : ''}${formatBytes(Number(m[2]))}` : key;
}

export function diskStatsBlock(cycle: CycleRecord): Html {
  const stats = cycle.cut?.stats;
  if (!stats) return html`<p class="muted">No disk counters (the cut never fired).</p>`;
  const sizes = Object.entries(stats.writesBySize).filter(([, n]) => n > 0);
  return html`<dl class="kv">
<dt>writes</dt><dd>${formatCount(stats.writes)} (${formatBytes(stats.bytesWritten)})</dd>
<dt>flushes</dt><dd>${formatCount(stats.flushes)}</dd>
<dt>page-size writes</dt><dd>${formatCount(stats.pageWrites)}</dd>
<dt>misaligned to the page</dt><dd>${formatCount(stats.pageWritesMisaligned)}</dd>
<dt>straddling a ${formatBytes(cycle.settings.disk.atomicUnit)} unit</dt>${straddlingValue(cycle)}
<dt>writes by size</dt><dd>${sizes.map(([size, n]) => html`<span class="size">${sizeLabel(size)}: ${formatCount(n)}</span> `)}</dd>
</dl>`;
}
