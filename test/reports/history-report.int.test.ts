/**
 * "Since earlier runs" in headless Chromium: five nights filed into a real store, the report of
 * night 4 (the upgrade that stopped a finding) and of night 5 (the same again) rendered with the
 * history; the section reached from the table of contents, its flags as the store says, no request
 * leaving the page, no script error. Screenshots go to .tap/artifacts/.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HistoryStore } from '../../rig/history/history-store.js';
import { historyViewAt } from '../../rig/history/history-view.js';
import { writeReport } from '../../reports/write-report.js';
import { launchChromium, openReport } from '../fixtures/chromium.js';
import { fiveNights, writeRunDir } from '../fixtures/history/nightly-runs.js';

const ARTIFACTS = resolve('.tap/artifacts');
const base = mkdtempSync(join(tmpdir(), 'rig-history-report-'));
t.teardown(() => rmSync(base, { recursive: true, force: true }));

t.test('the report of a filed night, with its history, in Chromium', async (t) => {
  await mkdir(ARTIFACTS, { recursive: true });
  const store = await HistoryStore.open(join(base, 'history.sqlite'));
  const nights = fiveNights().map((results, i) => {
    const dir = writeRunDir(base, `night-${i + 1}`, results);
    store.add(results, dir);
    return { dir, results };
  });
  const runs = store.runs('quick');
  store.close();
  const browser = await launchChromium();
  t.teardown(() => browser.close());

  t.test('night 4: the new flags in bold, the rates and first and last seen per scenario', async (t) => {
    const file = await writeReport(nights[3]!.dir, undefined, { history: historyViewAt(runs, nights[3]!.results.startedAt, 10)! });
    const { page, requests, errors } = await openReport(browser, file);
    t.teardown(() => page.close());
    await page.locator('nav.toc a[href="#history"]').click();
    t.ok(await page.locator('#history').isVisible(), 'the section, from the table of contents');
    t.match(await page.locator('#history p').first().innerText(), /^This run held against the 3 filed before it \(of 4 in the store\), pooled: 2 changes\./, 'night 4 sees nights 1-3, not night 5');
    const flagged = await page.locator('#history ul.history-changes li.new').allInnerTexts();
    t.same(flagged.map((l) => l.split(':')[0]).sort(), ['MOVED dw-on-4k-ext4', 'STOPPED dw-on-4k-ext4']);
    t.equal(await page.locator('#history li.new').first().evaluate((e) => getComputedStyle(e).fontWeight), '600', 'a new flag stands out');
    const row = page.locator('#history table.history tr', { hasText: 'finding page0-not-restored' });
    t.match(await row.innerText(), /42\/120 \(35%, 95% 27-44%\)\s+run 1 \(2026-11-01 02:00:00 UTC\) to run 3 \(2026-11-03 02:00:00 UTC\), in 3 of 4/);
    t.match(await page.locator('#history table.history td[rowspan]').first().innerText(), /dw-on-4k-ext4\s+mariadbd 10\.11\.19-MariaDB-0\+deb12u1 \(runs 1, 2, 3\); mariadbd 10\.11\.20-MariaDB-0\+deb12u1 \(run 4\)/);
    t.same(requests.map((u) => u.split('#')[0]), [pathToFileURL(file).href], 'the only request is the report itself');
    t.same(errors, [], 'no script error and no CSP violation');
    await page.locator('#history').screenshot({ path: join(ARTIFACTS, 'report-history-night4.png') });
  });

  t.test('night 5: what moved the night before stands, nothing new', async (t) => {
    const file = await writeReport(nights[4]!.dir, undefined, { history: historyViewAt(runs, nights[4]!.results.startedAt, 10)! });
    const { page, errors } = await openReport(browser, file, '#history');
    t.teardown(() => page.close());
    t.match(await page.locator('#history p').first().innerText(), /pooled: nothing new moved\./);
    t.equal(await page.locator('#history li.new').count(), 0);
    const still = await page.locator('#history li.still').allInnerTexts();
    t.equal(still.length, 2);
    t.ok(still.every((l) => l.startsWith('still, as the run before: ')), still.join('\n'));
    t.same(errors, []);
  });

  t.test('without --history the report has no such section', async (t) => {
    const file = await writeReport(nights[4]!.dir, join(base, 'plain.html'));
    const { page } = await openReport(browser, file);
    t.teardown(() => page.close());
    t.equal(await page.locator('#history').count(), 0);
    t.equal(await page.locator('nav.toc a[href="#history"]').count(), 0);
  });
});
