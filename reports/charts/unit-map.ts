/**
 * A torn page as a row of boxes, one per atomic unit the pending writes touched: "N" where the unit
 * holds the newest version written to the page, "o" where it holds an older one. Fill, pattern and letter all carry the meaning, not colour alone.
 */
import { html, type Html } from '../html.js';

const NEW = html`<i class="n">N</i>`;
const OLD = html`<i class="o">o</i>`;

export function unitMap(unitsNew: boolean[]): Html {
  const landed = unitsNew.filter(Boolean).length;
  const label = `${landed} of ${unitsNew.length} atomic units hold the newest version, ${unitsNew.length - landed} an older one`;
  const dense = unitsNew.length > 16;
  return html`<span class="unit-map${dense ? ' dense' : ''}" title="${label}">${unitsNew.map((isNew) => (isNew ? NEW : OLD))}</span>`;
}

export function unitMapLegend(): Html {
  return html`<p class="legend"><span class="unit-map">${NEW}</span> holds the newest version written <span class="unit-map">${OLD}</span> holds an older version (one box per atomic unit the pending writes touched)</p>`;
}
