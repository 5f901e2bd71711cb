/**
 * The report's only script, the same on the index and on each cycle's page: on the index it fills
 * the cycle table from the page's data block (filtered by verdict, scenario, finding and problems,
 * a page of rows at a time) and sends an old #cycle-<id> link on to that cycle's page; on a cycle
 * page it copies repro commands. It reads data only through JSON.parse and textContent and never
 * writes markup. The Content-Security-Policy admits this script alone, by its hash.
 */
import { createHash } from 'node:crypto';

/** Rows added to the table at a time: enough to scroll, few enough to draw at once. */
export const ROWS_PER_PAGE = 200;

export const CLIENT_SCRIPT = `(function () {
  'use strict';
  var dataBlock = document.getElementById('cycle-data');
  var data = null;
  if (dataBlock) {
    try { data = JSON.parse(dataBlock.textContent); } catch (e) { data = null; }
  }
  // as reports/cycle-page.ts names a cycle's page
  function pageName(id) { return 'cycle-' + id.replace(/[^A-Za-z0-9_.-]/g, '_') + '.html'; }
  function pageHref(id) { return data.pages + '/' + encodeURIComponent(pageName(id)); }
  function openTarget() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    if (!id) return;
    var el = document.getElementById(id);
    if (!el && data && id.indexOf('cycle-') === 0) {
      for (var i = 0; i < data.rows.length; i++) {
        if (pageName(data.rows[i][0]) === id + '.html') { location.replace(pageHref(data.rows[i][0])); return; }
      }
    }
    if (!el) return;
    for (var node = el; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS') node.open = true;
    }
    el.scrollIntoView({ block: 'start' });
  }
  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  function flash(button, text) {
    button.textContent = text;
    setTimeout(function () { button.textContent = 'Copy'; }, 1500);
  }
  function copyFrom(button) {
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) return;
    var text = source.textContent;
    var done = function () { flash(button, 'Copied'); };
    var fallback = function () { flash(button, fallbackCopy(text) ? 'Copied' : 'Select and copy'); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  }
  var MARKS = [['held-yes', '\\u2713 as expected'], ['held-no', '\\u2717 contradicts'], ['held-rig', '\\u2699 rig error']];
  var matching = [];
  var shown = 0;
  function filterValue(name) {
    var el = document.querySelector('[data-filter="' + name + '"]');
    if (!el) return null;
    if (el.type === 'checkbox') return el.checked;
    return el.value === '' ? null : Number(el.value);
  }
  function cell(row, text, css) {
    var td = document.createElement('td');
    if (css) td.className = css;
    td.textContent = text;
    row.appendChild(td);
    return td;
  }
  function drawMore() {
    var body = document.getElementById('cycle-rows');
    var end = Math.min(matching.length, shown + ${ROWS_PER_PAGE});
    var rows = document.createDocumentFragment();
    for (var i = shown; i < end; i++) {
      var r = matching[i];
      var tr = document.createElement('tr');
      tr.className = r[3] === 0 ? 'row-held' : r[3] === 1 ? 'row-failed' : 'row-rig';
      var link = document.createElement('a');
      link.href = pageHref(r[0]);
      link.textContent = r[0];
      cell(tr, '', 'mono').appendChild(link);
      cell(tr, data.scenarios[r[1]]);
      var verdict = cell(tr, '');
      var chip = document.createElement('span');
      chip.className = 'chip v-' + data.verdicts[r[2]];
      chip.textContent = data.verdictLabels[r[2]];
      verdict.appendChild(chip);
      var mark = document.createElement('span');
      mark.className = 'held ' + MARKS[r[3]][0];
      mark.textContent = MARKS[r[3]][1];
      verdict.appendChild(mark);
      cell(tr, String(r[4]), 'num');
      cell(tr, r[5] < 0 ? '' : data.findings[r[5]], 'mono');
      rows.appendChild(tr);
    }
    body.appendChild(rows);
    shown = end;
    document.getElementById('cycle-count').textContent = shown + ' of ' + matching.length + ' matching shown; ' + data.rows.length + ' cycles in all';
    document.querySelector('button[data-action="more"]').hidden = shown >= matching.length;
  }
  var applied = null;
  function filterKey() {
    return [filterValue('verdict'), filterValue('scenario'), filterValue('finding'), filterValue('problems')].join('/');
  }
  function applyFilters() {
    var verdict = filterValue('verdict'), scenario = filterValue('scenario'), finding = filterValue('finding'), problems = filterValue('problems');
    applied = filterKey();
    matching = data.rows.filter(function (r) {
      return (verdict === null || r[2] === verdict) && (scenario === null || r[1] === scenario) &&
        (finding === null || r[5] === finding) && (!problems || r[3] !== 0);
    });
    document.getElementById('cycle-rows').textContent = '';
    shown = 0;
    drawMore();
  }
  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('button');
    if (!button) return;
    if (button.hasAttribute('data-copy')) copyFrom(button);
    else if (button.getAttribute('data-action') === 'more') drawMore();
  });
  document.addEventListener('change', function (event) {
    if (data && event.target.hasAttribute && event.target.hasAttribute('data-filter')) applyFilters();
  });
  window.addEventListener('hashchange', openTarget);
  // Back to the index: the browser puts the filters' last values back after this script ran,
  // without a change event; the list follows them
  window.addEventListener('pageshow', function () {
    if (data && filterKey() !== applied) applyFilters();
  });
  if (data) applyFilters();
  document.documentElement.setAttribute('data-ready', '1');
  openTarget();
})();`;

/** The policy both kinds of page carry: nothing fetched, no script but this one. */
export function contentSecurityPolicy(): string {
  const scriptHash = createHash('sha256').update(CLIENT_SCRIPT).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
