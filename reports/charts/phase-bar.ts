/** Phase timings of one cycle as a single stacked bar, each phase named with its duration. */
import { PHASES, type Phase } from '../../rig/results/types.js';
import { formatMs } from '../format.js';
import { html, type Html } from '../html.js';

export function phaseBar(timings: Partial<Record<Phase, number>>): Html {
  const phases = PHASES.filter((p) => (timings[p] ?? 0) > 0);
  const total = phases.reduce((sum, p) => sum + (timings[p] ?? 0), 0);
  if (total === 0) return html`<p class="muted">No phase timings were recorded.</p>`;
  let offset = 0;
  const segments = phases.map((p) => {
    const width = ((timings[p] ?? 0) / total) * 100;
    const seg = html`<rect class="ph-${p}" x="${offset.toFixed(3)}" y="0" width="${width.toFixed(3)}" height="10"><title>${p}: ${formatMs(timings[p] ?? 0)}</title></rect>`;
    offset += width;
    return seg;
  });
  return html`<div class="phases"><svg class="phase-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="Phase timings, total ${formatMs(total)}">${segments}</svg>
<ul class="phase-legend">${phases.map((p) => html`<li><span class="swatch ph-${p}"></span>${p} <b>${formatMs(timings[p] ?? 0)}</b></li>`)}<li class="total">total <b>${formatMs(total)}</b></li></ul></div>`;
}
