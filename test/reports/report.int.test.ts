/**
 * Opens rendered reports in headless Chromium (Debian's, driven by playwright-core): the verdict
 * line, the matrix, the list of cycles and its filters, a cycle's page with its unit map and log
 * excerpt, markup shown as text with no script run, no request leaving the report's folder.
 * Full-page screenshots go to .tap/artifacts/.
 * RIG_REPORT_DIR=<a campaign's output folder> points the general checks at a real run instead of
 * the hand-built fixture.
 */
import t from 'tap';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium, openReport } from '../fixtures/chromium.js';
import { ROWS_PER_PAGE } from '../../reports/client-script.js';
import { cyclePageName, cyclePagesFolder } from '../../reports/cycle-page.js';
import { writeReport } from '../../reports/write-report.js';
import { copyQuickCampaign } from '../fixtures/report/load-fixture.js';
import { generateCampaign, writeCampaign } from '../../bench/synthetic-campaign.js';
import { openResults } from '../../rig/results/load-results.js';

const ARTIFACTS = resolve('.tap/artifacts');
const REAL_DIR = process.env.RIG_REPORT_DIR;

/** What the matrix of a run's report must show: its scenarios that cut power (perf ones have no
 * cell), and how many doublewrite settings they used (a column group each). */
async function matrixShape(dir: string): Promise<{ scenarios: number; modes: number }> {
  const cut = (await openResults(dir)).summary.scenarios.filter((s) => !s.settings.perf);
  return { scenarios: cut.length, modes: new Set(cut.map((s) => s.settings.server.doublewrite)).size };
}


t.test('the report in Chromium', async (t) => {
  await mkdir(ARTIFACTS, { recursive: true });
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const dir = REAL_DIR ?? run.dir;
  const file = await writeReport(dir, REAL_DIR ? join(run.dir, 'real.html') : undefined);
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const url = pathToFileURL(file).href;
  const pageFile = (id: string) => join(dirname(file), cyclePagesFolder(basename(file)), cyclePageName(id));

  t.test('verdict line, matrix and scenarios, with no request leaving the page', async (t) => {
    const { page, requests, errors } = await openReport(browser, file);
    t.teardown(() => page.close());
    const verdict = (await page.locator('#verdict').innerText()).trim();
    t.match(verdict, /^(✓ PASS|✗ FAIL|⚙ RIG ERROR|… RUNNING)\s/, `verdict line: ${verdict}`);
    if (!REAL_DIR) t.match(verdict, /✓ PASS\s+every expectation held: 3 scenarios, 9 cycles; the negative control tore pages in 3\/3 cycles/);
    const shape = await matrixShape(dir);
    t.equal(await page.locator('table.matrix th.dw-group').count(), shape.modes, `a column group for each doublewrite setting the run used (${shape.modes})`);
    const cells = await page.locator('table.matrix td.cell:not(.cell-empty) .cell-status').allInnerTexts();
    t.ok(cells.length >= 1 && cells.length <= shape.scenarios, `matrix cells with scenarios, at most one each (${shape.scenarios}): ${cells.join(' | ')}`);
    if (!REAL_DIR) t.same(cells.sort(), ['✓ held', '✓ held', '✓ held']);
    t.same(requests.map((u) => u.split('#')[0]), [url], 'the only request is the report itself');
    t.same(errors, [], 'no script error and no CSP violation');
    await page.screenshot({ path: join(ARTIFACTS, 'report-overview.png'), fullPage: true });
  });

  t.test('the list of every cycle: rows, filters, and the link of a row to its page', async (t) => {
    const { page, requests, errors } = await openReport(browser, file);
    t.teardown(() => page.close());
    const rows = page.locator('#cycle-rows tr');
    const all = await rows.count();
    t.ok(all > 0, `${all} rows`);
    if (!REAL_DIR) {
      t.equal(all, 9, 'every cycle of the fixture');
      t.match(await page.locator('#cycle-count').innerText(), /^9 of 9 matching shown; 9 cycles in all$/);
      await page.selectOption('[data-filter="scenario"]', { label: 'dw-off-4k-ext4 (3)' });
      t.same((await rows.locator('td:first-child').allInnerTexts()).sort(), ['dw-off-4k-ext4-1', 'dw-off-4k-ext4-2', 'dw-off-4k-ext4-3'], 'the scenario filter');
      await page.check('[data-filter="problems"]');
      t.equal(await rows.count(), 0, 'no problem cycle in a passing run');
      await page.uncheck('[data-filter="problems"]');
      await page.selectOption('[data-filter="scenario"]', '');
    }
    const first = rows.first().locator('a');
    const id = await first.innerText();
    await Promise.all([page.waitForURL(/-cycles\/cycle-[^/]+\.html$/), first.click()]);
    t.equal(await page.locator(`[id="cycle-${id}"]`).getAttribute('open'), '', 'the row led to its cycle\'s page, opened');
    t.ok(requests.every((u) => u.startsWith(pathToFileURL(dirname(file)).href)), 'every request stays in the report\'s folder');
    t.same(errors, [], 'no script error and no CSP violation');
  });

  t.test('on a phone\'s 390 px the pages do not scroll sideways: wide tables scroll in their own box', async (t) => {
    const { page, errors } = await openReport(browser, file);
    t.teardown(() => page.close());
    const id = await page.locator('#cycle-rows tr a').first().innerText();
    for (const [name, url] of [['the index', pathToFileURL(file).href], [`${id}'s page`, pathToFileURL(pageFile(id)).href]] as const) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url);
      await page.waitForSelector('html[data-ready="1"]');
      const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      t.ok(scroll <= client, `${name}: ${scroll} px of content in ${client} px`);
      if (name === 'the index') {
        // the list's ids wrap where they have a hyphen, not within a word
        const broken = await page.evaluate(() => [...document.querySelectorAll('#cycle-rows td:first-child a')].filter((a) => {
          const text = a.firstChild!;
          let at = 0;
          return a.textContent!.split('-').some((part) => {
            const range = document.createRange();
            range.setStart(text, at);
            range.setEnd(text, at + part.length);
            at += part.length + 1;
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
          });
        }).map((a) => a.textContent));
        t.same(broken, [], 'the cycle list breaks no id within a word');
      }
      await page.screenshot({ path: join(ARTIFACTS, `report-390-${name === 'the index' ? 'index' : 'cycle'}.png`), fullPage: true });
    }
    t.same(errors, [], 'no script error');
  });

  t.test('back from a cycle\'s page, the list follows the filters the browser puts back', async (t) => {
    const { page, errors } = await openReport(browser, file);
    t.teardown(() => page.close());
    const rows = page.locator('#cycle-rows tr');
    const count = page.locator('#cycle-count');
    const total = Number(/; (\d+) cycles? in all$/.exec(await count.innerText())?.[1]);
    // a scenario holding fewer than every cycle (the fixture's negative control, else the last
    // such; in a run of one scenario, that one, whose filter put back lists every cycle), with the
    // count its option says it holds
    const scenario = await page.evaluate(({ fixture, total }) => {
      const named = [...document.querySelectorAll<HTMLOptionElement>('[data-filter="scenario"] option')]
        .filter((o) => o.value !== '')
        .map((o) => ({ value: o.value, name: o.text.replace(/ \(\d+\)$/, ''), cycles: Number(/\((\d+)\)$/.exec(o.text)?.[1]) }));
      return fixture ? named.find((o) => o.name === 'dw-off-4k-ext4') : ([...named].reverse().find((o) => o.cycles < total) ?? named[0]);
    }, { fixture: !REAL_DIR, total });
    if (!scenario) return t.fail('the scenario filter offers no scenario');
    const listed = (n: number) => `^${Math.min(n, ROWS_PER_PAGE)} of ${n} matching shown; ${total} cycles? in all$`;
    // what a browser does on Back: the filters' values put back after the script ran, with no
    // change event, then pageshow
    await page.evaluate((value) => {
      document.querySelector<HTMLSelectElement>('[data-filter="scenario"]')!.value = value;
      window.dispatchEvent(new Event('pageshow'));
    }, scenario.value);
    t.match(await count.innerText(), new RegExp(listed(scenario.cycles)), 'the list follows the filter put back');
    t.same(new Set(await rows.locator('td:nth-child(2)').allInnerTexts()), new Set([scenario.name]), `only ${scenario.name}'s cycles are listed`);
    if (!REAL_DIR) {
      t.match(await count.innerText(), /^3 of 3 matching shown; 9 cycles in all$/);
      t.same((await rows.locator('td:first-child').allInnerTexts()).sort(), ['dw-off-4k-ext4-1', 'dw-off-4k-ext4-2', 'dw-off-4k-ext4-3']);
    }
    // and through a real Back, whether this Chromium restores the filter or keeps the page whole:
    // the list shows what the filter shows
    await Promise.all([page.waitForURL(/-cycles\/cycle-[^/]+\.html$/), rows.first().locator('a').click()]);
    await page.goBack({ waitUntil: 'load' });
    await page.waitForSelector('html[data-ready="1"]');
    const shown = await page.locator('[data-filter="scenario"] option:checked').innerText();
    t.comment(`the scenario filter after a real Back: ${shown}`);
    t.match(await count.innerText(), new RegExp(listed(shown.startsWith(`${scenario.name} (`) ? scenario.cycles : total)));
    t.same(errors, [], 'no script error');
  });

  t.test('an old #cycle-<id> link to the index is sent on to the cycle\'s page, with its unit map and log excerpt', async (t) => {
    const id = REAL_DIR ? await firstTornCycle(browser, file) : 'dw-off-4k-ext4-1';
    if (!id) return t.fail('no cycle of this campaign tore a page: the report has no unit map to show (is the negative control blind?)');
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    t.teardown(() => page.close());
    await page.goto(`${url}#cycle-${id}`);
    await page.waitForURL(pathToFileURL(pageFile(id)).href);
    await page.waitForSelector('html[data-ready="1"]');
    const cycle = page.locator(`[id="cycle-${id}"]`);
    t.equal(await cycle.getAttribute('open'), '', 'the cycle is open on its page');
    t.ok(await cycle.locator('.unit-map').first().isVisible(), 'a unit map is visible');
    const boxes = await cycle.locator('table.torn .unit-map').first().locator('i').allInnerTexts();
    t.ok(boxes.length >= 2 && boxes.every((b) => b === 'N' || b === 'o'), `unit boxes: ${boxes.join('')}`);
    t.ok(await cycle.locator('table.log-lines tr[class^="k-"]').count() > 0, 'classified log lines are highlighted');
    t.ok(await cycle.locator('table.log-lines b.tag').first().isVisible(), 'each highlighted line names its kind');
    await cycle.screenshot({ path: join(ARTIFACTS, 'report-cycle.png') });
  });

  t.test('the throughput chart: commits per second over real intervals, its axis titled and in view', async (t) => {
    const id = REAL_DIR ? await firstTornCycle(browser, file) : 'dw-off-4k-ext4-1';
    const { page } = await openReport(browser, pageFile(id));
    t.teardown(() => page.close());
    const chart = page.locator(`[id="cycle-${id}"] svg.chart`);
    const title = chart.locator('text.axis', { hasText: 'commits per second' });
    t.ok(await title.isVisible(), 'the rate axis says its unit');
    const titleBox = (await title.boundingBox())!;
    const tickBoxes = await Promise.all((await chart.locator('text.tick').all()).map((tick) => tick.boundingBox()));
    const overlaps = tickBoxes.filter((b) => b && b.x < titleBox.x + titleBox.width && titleBox.x < b.x + b.width && b.y < titleBox.y + titleBox.height && titleBox.y < b.y + b.height);
    t.equal(overlaps.length, 0, 'no tick label covers the axis title');
    const rateTicks = (await chart.locator('text.tick[text-anchor="end"]').allTextContents()).map((v) => (v.endsWith('k') ? Number(v.slice(0, -1)) * 1000 : Number(v)));
    const top = Math.max(...rateTicks);
    // the fixture's cycle commits 300-340 per 500 ms bucket: 600-680 a second, and never more
    if (!REAL_DIR) t.ok(top >= 600 && top <= 1000, `the rate axis ends at ${top} commits/s`);
    await chart.screenshot({ path: join(ARTIFACTS, 'report-throughput.png') });
  });

  t.test('markup from data is text: no script ran, no element was made', { skip: REAL_DIR ? 'fixture-only check' : false }, async (t) => {
    const { page, requests } = await openReport(browser, pageFile('dw-off-4k-ext4-1'));
    t.teardown(() => page.close());
    const log = await page.locator('[id="cycle-dw-off-4k-ext4-1"] table.log-lines').innerText();
    t.ok(log.includes('./sbtest/<script>window.__pwned=1</script>.ibd <img src=x onerror="window.__pwned=2">'), 'the hostile line reads as text');
    t.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no injected script ran');
    t.equal(await page.locator('script').count(), 1, 'the report\'s own script only');
    t.equal(await page.locator('img').count(), 0);
    await page.goto(pathToFileURL(pageFile('dw-on-4k-ext4-2')).href);
    t.ok((await page.locator('[id="cycle-dw-on-4k-ext4-2"] table.torn').innerText()).includes('./sbtest/<script>.ibd'), 'a table named <script> shows as text');
    t.same([...new Set(requests.map((u) => u.split('#')[0]))], [pathToFileURL(pageFile('dw-off-4k-ext4-1')).href, pathToFileURL(pageFile('dw-on-4k-ext4-2')).href]);
  });

  t.test('the copy button copies the repro command, with a fallback when the clipboard refuses', async (t) => {
    const { page } = await openReport(browser, pageFile(REAL_DIR ? await firstTornCycle(browser, file) : 'dw-on-4k-ext4-1'));
    t.teardown(() => page.close());
    const first = page.locator('details.cycle').first();
    const command = (await first.locator('pre.cmd').innerText()).trim();
    t.match(command, /^rig repro /);
    // record what the page hands the clipboard: headless Chromium has no clipboard to read back
    await page.evaluate(() => {
      const w = window as unknown as { copied: string[] };
      w.copied = [];
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: (text: string) => (w.copied.push(text), Promise.resolve()) } });
    });
    const button = first.locator('button.copy');
    await button.click();
    await page.waitForFunction(() => document.querySelector('details.cycle button.copy')?.textContent !== 'Copy');
    t.equal(await button.innerText(), 'Copied');
    t.same(await page.evaluate(() => (window as unknown as { copied: string[] }).copied), [command]);
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } }));
    await page.waitForFunction(() => document.querySelector('details.cycle button.copy')?.textContent === 'Copy', undefined, { timeout: 5000 });
    await button.click();
    await page.waitForFunction(() => document.querySelector('details.cycle button.copy')?.textContent !== 'Copy');
    t.match(await button.innerText(), /^(Copied|Select and copy)$/, 'the textarea fallback ran and said what happened');
  });

  t.test('a failing campaign puts its alarms first', async (t) => {
    const failing = join(run.dir, 'failing');
    await writeCampaign(failing, await generateCampaign({ cycles: 21, preset: 'torn-pages', blindControl: true, silentCorruption: true, noDoublewriteCopies: true, seed: 11 }));
    const { page, requests } = await openReport(browser, await writeReport(failing));
    t.teardown(() => page.close());
    t.match(await page.locator('#verdict').innerText(), /✗ FAIL/);
    const alarms = await page.locator('.alarm .alarm-title').allInnerTexts();
    t.match(alarms.join('\n'), /Silent corruption in 1 cycle[\s\S]*The rig was blind[\s\S]*Vacuous: "dw-on-4k-ext4" did not exercise what it claims \(doublewrite exercised in 0 of \d+ cycles\)/);
    t.match(await page.locator('[id="scenario-dw-on-4k-ext4"] td.exercised').innerText(), /doublewrite exercised in 0 of \d+ cycles\s*needs 50%/);
    t.match(await page.locator('[id="scenario-dw-on-4k-ext4"] .status').innerText(), /FAILED/, 'a contradicted cycle outranks vacuity');
    t.match(await page.locator('[id="scenario-dw-on-16k-xfs-bs16k"] .status').innerText(), /VACUOUS/);
    const alarmTop = (await page.locator('.alarm').first().boundingBox())!.y;
    const matrixTop = (await page.locator('#matrix').boundingBox())!.y;
    t.ok(alarmTop < matrixTop, 'alarms sit above the matrix');
    t.equal(new Set(requests.map((u) => u.split('#')[0])).size, 1);
    await page.screenshot({ path: join(ARTIFACTS, 'report-failing.png'), fullPage: true });
  });
});

/** The first cycle with a torn page, from the index's data block. */
async function firstTornCycle(browser: Browser, file: string): Promise<string> {
  const { page } = await openReport(browser, file);
  const id = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('cycle-data')!.textContent!) as { rows: [string, number, number, number, number][] };
    return data.rows.find((r) => r[4] > 0)?.[0] ?? '';
  });
  await page.close();
  return id;
}
