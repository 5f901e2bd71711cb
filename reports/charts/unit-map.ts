/**
 * A torn page as a row of boxes, one per atomic unit: "N" where the new bytes landed, "o" where the
 * unit kept its old contents. Fill, pattern and letter all carry the meaning, not colour alone.
 */
import { html, type Html } from '../html.js';

const NEW = html`<i class="n">N</i>`;
const OLD = html`<i class="o">o</i>`;

export function unitMap(unitsNew: boolean[]): Html {
  const landed = unitsNew.filter(Boolean).length;
  const label = `${landed} of ${unitsNew.length} atomic units new, ${unitsNew.length - landed} old`;
  const dense = unitsNew.length > 16;
  return html`<span class="unit-map${dense ? ' dense' : ''}" title="${label}">${unitsNew.map((isNew) => (isNew ? NEW : OLD))}</span>`;
}

export function unitMapLegend(): Html {
  return html`<p class="legend"><span class="unit-map">${NEW}</span> new bytes landed <span class="unit-map">${OLD}</span> unit stayed old (one box per atomic unit of the page)</p>`;
}
