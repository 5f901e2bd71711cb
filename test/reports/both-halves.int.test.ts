/**
 * The safety-and-benefit section in headless Chromium (Debian's, driven by playwright-core): both
 * halves side by side with the claimed figure, a profile named with markup shown as text with no
 * script run, no request leaving the page. A screenshot goes to .tap/artifacts/.
 */
import t from 'tap';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderAll } from '../fixtures/report/render-all.js';
import { resultsWithPerf } from '../fixtures/report/with-perf.js';
import { launchChromium, openReport } from '../fixtures/chromium.js';

const ARTIFACTS = resolve('.tap/artifacts');
const PROFILE = 'essd<img src=x onerror="document.title=1">';

t.test('safety and benefit side by side in Chromium', async (t) => {
  await mkdir(ARTIFACTS, { recursive: true });
  const dir = await mkdtemp(join(tmpdir(), 'rig-both-halves-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const results = await resultsWithPerf(PROFILE);
  results.scenarios.find((s) => s.name === 'perf-essd')!.settings.disk.profile = PROFILE;
  const file = join(dir, 'index.html');
  await writeFile(file, renderAll(results).index);
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const { page, requests, errors } = await openReport(browser, file, '#both-halves');
  const row = page.locator('table.both-halves tbody tr').first();
  const cells = (await row.locator('td').allInnerTexts()).map((c) => c.replace(/\s+/g, ' ').trim());
  t.match(cells[0], /^perf-essd doublewrite off vs on/);
  t.match(cells[1], /^torn pages: never in 3 cycles \(dw-off-16k-bigalloc\)$/, 'the safety half');
  t.match(cells[2], `write QPS: +40% on profile ${PROFILE}`, 'the benefit half, the profile shown as text');
  t.match(cells[3], /^\+47% on Premium ESSD sysbench oltp_write_only/, 'the claimed figure beside ours');
  t.ok(await row.locator('td').nth(1).locator('b.ok').isVisible(), 'never torn is shown as good');
  t.equal(await page.locator('table.both-halves img').count(), 0, 'no element from the profile name');
  t.not(await page.title(), '1', 'no script from the profile name ran');
  t.same(errors, [], 'no script error and no CSP violation');
  t.same(requests.map((u) => u.split('#')[0]), [pathToFileURL(file).href], 'the only request is the report itself');
  await page.locator('#both-halves').screenshot({ path: join(ARTIFACTS, 'report-both-halves.png') });
});
