/**
 * The report's only script: opens the cycle a link points at, copies repro commands, filters and
 * expands cycles, opens everything for printing. It reads data only through textContent and never
 * writes markup.
 */
export const CLIENT_SCRIPT = `(function () {
  'use strict';
  function openTarget() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    if (!id) return;
    var el = document.getElementById(id);
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
  function setAll(open) {
    var all = document.querySelectorAll('details.cycle');
    for (var i = 0; i < all.length; i++) all[i].open = open;
  }
  var printOpened = [];
  window.addEventListener('beforeprint', function () {
    printOpened = [];
    var all = document.querySelectorAll('details.cycle:not([open])');
    for (var i = 0; i < all.length; i++) { all[i].open = true; printOpened.push(all[i]); }
  });
  window.addEventListener('afterprint', function () {
    for (var i = 0; i < printOpened.length; i++) printOpened[i].open = false;
  });
  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('button');
    if (!button) return;
    var action = button.getAttribute('data-action');
    if (button.hasAttribute('data-copy')) copyFrom(button);
    else if (action === 'expand') setAll(true);
    else if (action === 'collapse') setAll(false);
    else if (action === 'only-failing') {
      var on = document.body.classList.toggle('only-failing');
      button.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  });
  window.addEventListener('hashchange', openTarget);
  document.documentElement.setAttribute('data-ready', '1');
  openTarget();
})();`;
