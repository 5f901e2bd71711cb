/** The writes still unflushed at the cut and the fate the seeded plan gave each. */
import type { CutSummary } from '../../../rig/results/types.js';
import type { Fate, PendingWrite } from '../../../faults/crash-plan.js';
import { formatBytes, formatCount, formatMs } from '../../format.js';
import { html, type Html } from '../../html.js';
import { unitMap } from '../../charts/unit-map.js';

const MAX_ROWS = 12;
const FATE_ORDER: Fate[] = ['torn', 'dropped', 'landed'];

function landedMap(w: PendingWrite): boolean[] {
  const landed = new Set(w.unitsLanded);
  return Array.from({ length: w.units }, (_, i) => landed.has(i));
}

/** Only a torn write needs its map; a whole or dropped write says so in words. */
function landedCell(w: PendingWrite): Html | string {
  if (w.fate === 'torn') return unitMap(landedMap(w));
  return w.fate === 'landed' ? `all ${w.units}` : 'none';
}

export function pendingWritesBlock(cut: CutSummary | null, writes: PendingWrite[]): Html {
  if (!cut) return html`<p class="muted">The cut never fired.</p>`;
  const counts = FATE_ORDER.map((f) => [f, writes.filter((w) => w.fate === f).length] as const);
  const shown = [...writes].sort((a, b) => FATE_ORDER.indexOf(a.fate) - FATE_ORDER.indexOf(b.fate) || a.seq - b.seq).slice(0, MAX_ROWS);
  return html`<p>Cut by <b>${cut.reason}</b> at ${formatMs(cut.atMs)} with <b>${formatCount(cut.pending)}</b> writes pending (${formatCount(cut.pendingPageWrites)} of page size or more).</p>
<p class="fates">${counts.map(([fate, n]) => html`<span class="tag f-${fate}">${n} ${fate}</span> `)}</p>
${shown.length === 0 ? null : html`<table class="compact"><thead><tr><th class="num">seq</th><th class="num">device offset</th><th class="num">length</th><th>fate</th><th>units landed</th></tr></thead><tbody>
${shown.map((w) => html`<tr><td class="num">${w.seq}</td><td class="num mono">${formatCount(w.offset)}</td><td class="num">${formatBytes(w.length)}</td><td><span class="tag f-${w.fate}">${w.fate}</span></td><td>${landedCell(w)}</td></tr>`)}
</tbody></table>`}
${writes.length > shown.length ? html`<p class="sub">${writes.length - shown.length} more pending writes not shown (torn and dropped first); all are in results.json.</p>` : null}`;
}
