/** A verdict as a labelled chip: the words carry the meaning, colour only reinforces it. */
import type { Verdict } from '../../rig/results/types.js';
import { VERDICT_LABELS } from '../format.js';
import { html, type Html } from '../html.js';

export function verdictChip(verdict: Verdict, count?: number): Html {
  return html`<span class="chip v-${verdict}">${count === undefined ? null : html`<b>${count}</b> `}${VERDICT_LABELS[verdict]}</span>`;
}

export function heldMark(held: boolean, verdict?: Verdict): Html {
  if (verdict === 'rig-error') return html`<span class="held held-rig">⚙ no verdict: the rig failed</span>`;
  return held
    ? html`<span class="held held-yes">✓ as expected</span>`
    : html`<span class="held held-no">✗ contradicts expectation</span>`;
}
