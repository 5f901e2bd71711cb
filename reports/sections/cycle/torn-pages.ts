/** The pages the crash image held torn, each with its unit map and what recovery made of it. */
import type { CycleRecord, TornPage } from '../../../rig/results/types.js';
import { html, type Html } from '../../html.js';
import { unitMap, unitMapLegend } from '../../charts/unit-map.js';

const MAX_ROWS = 16;

function afterCell(p: TornPage): Html {
  if (p.freedAfter) return html`<span class="muted">freed (holds no data)</span>`;
  if (p.validAfter === null) return html`<span class="muted">not recovered</span>`;
  if (!p.validAfter) return html`<span class="bad">✗ still invalid</span>`;
  if (p.currentAfter === false) return html`<span class="bad" title="LSN ${p.lsnAfter} after recovery, ${p.newestLsn} written before the cut">✗ older than before the cut</span>`;
  if (p.currentBy === 'content') return html`<span class="ok" title="LSN ${p.lsnAfter} after recovery, ${p.newestLsn} written before the cut: the same content under an older LSN">✓ valid (same content, older LSN)</span>`;
  return html`<span class="ok">✓ valid</span>`;
}

/** The doublewrite copy the server's rules accept, or why there is none (older records lack it). */
function copyCell(p: TornPage): Html {
  const dw = p.doublewrite;
  if (!dw) return html`<span class="muted">—</span>`;
  const early = (dw.inFlight ?? []).filter((c) => c.beforeHomeWrite);
  const flying = early.length ? html` <span class="bad" title="write ${early.map((c) => `${c.seq} (${c.fate})`).join(', ')} carried the copy; the home write followed with no flush between">copy unflushed at the home write</span>` : null;
  const reused = (dw.overwritten ?? []).filter((c) => c.afterHomeWrite);
  const over = reused.length ? html` <span class="bad" title="write ${reused.map((c) => `${c.seq} (${c.fate})`).join(', ')} overwrote the copy after the home write, with no flush between">copy overwritten before the home write was flushed</span>` : null;
  const lost = !dw.restorable && dw.unwritten?.wouldRestore
    ? html` <span class="bad" title="${dw.unwritten.copies.map((c) => `${c.source} page ${c.slot}, LSN ${c.lsn}`).join(', ')}: on the device, in an extent the filesystem still marks unwritten">copy reads as zeros</span>`
    : null;
  return dw.restorable ? html`<span class="ok" title="${dw.why}">accepted</span>${flying}${over}` : html`<span class="muted" title="${dw.why}">${dw.copies.length ? 'rejected' : 'none'}</span>${flying}${over}${lost}`;
}

/** Pages that survived recovery torn come first, then unexplained repairs, then the rest. */
function rank(p: TornPage): number {
  return p.validAfter === false || p.currentAfter === false ? 0 : p.attribution === 'unexplained' ? 1 : 2;
}

/** The truth from content and whether the scan agreed with it (older records have neither). */
function truthLine(cycle: CycleRecord): Html | null {
  const c = cycle.pagesTouched;
  const r = cycle.reconciliation;
  if (!c || !r) return null;
  const total = c.torn + c.whole + c.unwritten + c['doublewrite-area'];
  const agreed = r.ok
    ? html`<span class="ok">The scan before recovery agrees with the disk's record page for page.</span>`
    : html`<span class="bad">The scan before recovery contradicts the disk's record:</span>
<ul class="mono">${[...r.invalidNotTorn.map((x) => `invalid, not torn: ${x}`), ...r.tornButValid.map((x) => `torn, verifies: ${x}`)].slice(0, 20).map((x) => html`<li>${x}</li>`)}</ul>`;
  return html`<p class="sub">Pending writes at the cut touched ${total} page(s): ${c.torn} torn, ${c.whole} whole, ${c.unwritten} in extents the image marks unwritten, ${c['doublewrite-area']} in the doublewrite area.
Checkpoint LSN of the crash image: ${cycle.checkpointLsn ?? 'unknown'}. ${agreed}</p>`;
}

const PATH_WORDS = {
  header: "by the space id in the torn page's own header",
  'pages-1-3': 'through pages 1-3 of the file',
  survey: 'by the space id its survey of the first 64 pages chooses (MySQL)',
  system: 'as a page of the system tablespace',
  none: 'not at all: no usable space id in the headers, pages 1-3 or the survey',
} as const;

function surveyWords(e: NonNullable<TornPage['page0']>): string {
  if (!e.survey) return '';
  const s = e.survey;
  return `; survey: ${s.valid} valid of ${s.analyzed} pages, ${s.chosen === null ? 'no space id chosen' : `space ${s.chosen} chosen (${s.matched}/${s.valid})`}`;
}

/** For each torn page 0 of a tablespace file: how the server finds its copy, pages 1-3, its log lines, any finding. */
function page0Block(pages: readonly TornPage[]): Html | null {
  const zeros = pages.filter((p) => p.page0 && p.page0.path !== 'system');
  if (!zeros.length) return null;
  return html`${zeros.map((p) => {
    const e = p.page0!;
    return html`<div class="page0"><p><b>Page 0 of <span class="mono">${p.file}</span></b>: the server looks its copy up ${PATH_WORDS[e.path]}
(header space id ${e.headerSpaceId ?? 'unusable'}; pages ${e.firstPages.map((f) => `${f.page} ${f.state}`).join(', ')}${surveyWords(e)}). ${p.doublewrite.why}.</p>
${e.serverLog.length ? html`<ul class="mono">${e.serverLog.map((l) => html`<li>${l}</li>`)}</ul>` : html`<p class="sub">The server's log said nothing about this page 0.</p>`}
${e.finding ? html`<p class="bad">Finding: ${e.finding}.</p>` : null}</div>`;
  })}`;
}

export function tornPagesBlock(cycle: CycleRecord): Html {
  const pages = cycle.tornPagesBefore;
  if (pages.length === 0) return html`<p>No page was torn in the crash image.</p>${truthLine(cycle)}`;
  const a = cycle.attribution;
  const shown = [...pages].sort((x, y) => rank(x) - rank(y)).slice(0, MAX_ROWS);
  return html`<p><b>${pages.length}</b> torn page${pages.length === 1 ? '' : 's'} in the crash image. Attribution after recovery:
<span class="tag a-doublewrite">doublewrite ${a.doublewrite}</span> <span class="tag a-redo">redo ${a.redo}</span> <span class="tag a-unexplained">unexplained ${a.unexplained}</span></p>
${truthLine(cycle)}
${unitMapLegend()}
<table class="compact torn"><thead><tr><th>file</th><th class="num">space</th><th class="num">page</th><th>units</th><th>before recovery</th><th>doublewrite copy</th><th>after</th><th>restored by</th></tr></thead><tbody>
${shown.map((p) => html`<tr><td class="mono">${p.file}</td><td class="num">${p.space ?? '?'}</td><td class="num">${p.page}</td><td>${unitMap(p.unitsNew)}</td><td>${p.invalidBefore ?? html`<span class="muted">verified</span>`}</td><td>${copyCell(p)}</td><td>${afterCell(p)}</td><td>${p.attribution ? html`<span class="tag a-${p.attribution}">${p.attribution}</span>` : html`<span class="muted">—</span>`}</td></tr>`)}
</tbody></table>
${pages.length > shown.length ? html`<p class="sub">${pages.length - shown.length} more torn pages not shown (still-invalid and unexplained first); all are in results.json.</p>` : null}
${page0Block(pages)}`;
}

export function afterRecoveryBlock(cycle: CycleRecord): Html {
  const invalid = cycle.pagesAfter;
  const failed = cycle.checkTable.failed;
  if (!cycle.serverStarted) return html`<p>The server did not start, so nothing was checked after recovery.</p>`;
  const scanned = !cycle.recovery || cycle.recovery.shutdown === 'clean'; // older records scanned always
  const pages = !scanned ? 'Pages were not scanned: the server did not shut down cleanly.'
    : invalid.length === 0 ? 'Every page verified after recovery.' : html`<b class="bad">${invalid.length} page(s) still invalid after recovery:</b>`;
  return html`<p>${pages}</p>
${invalid.length > 0 ? html`<ul class="mono">${invalid.slice(0, 20).map((p) => html`<li>${p.file} page ${p.page} (space ${p.space ?? '?'}): ${p.reason}</li>`)}</ul>` : null}
<p>CHECK TABLE on ${cycle.checkTable.tables} table(s): ${failed.length === 0 ? 'all OK' : html`<b class="bad">failed on ${failed.join(', ')}</b>`}</p>
${invariantsLine(cycle)}`;
}

/** Rows, ids, index entries and the history against the ledger (older records have no such field). */
function invariantsLine(cycle: CycleRecord): Html | null {
  const inv = cycle.invariants;
  if (!inv?.checked) return null;
  if (inv.violations.length === 0) return html`<p>Data invariants (rows, ids, index entries, history against the ledger): all held.</p>`;
  return html`<p><b class="bad">${inv.violations.length} data invariant(s) broken:</b></p><ul class="mono">${inv.violations.slice(0, 20).map((v) => html`<li>${v}</li>`)}</ul>`;
}
