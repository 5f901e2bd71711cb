/**
 * The report of a real small campaign (the three headline scenarios, one cycle each, a small
 * dataset), run through the built CLI and opened in headless Chromium: the verdict line, the
 * matrix, the index's link to a torn cycle's own page, that page's unit map and classified log
 * lines, and no request leaving the page. The negative control tears every pending write that
 * spans two atomic units (`fates: {tear: 1}`), and its armed cut comes with 16 page writes
 * pending: a torn cycle to show, whatever the seed.
 * The full-page screenshot is saved as .tap/artifacts/real-campaign.png.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { cyclePageName, cyclePagesFolder } from '../../reports/cycle-page.js';
import { anchorId } from '../../reports/html.js';

const work = mkdtempSync(join(tmpdir(), 'rig-real-report-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const file = join(work, 'headline.yml');
writeFileSync(
  file,
  `name: headline
seed: 11
defaults:
  cycles: 1
  runtime: local
  server: {pageSize: 16k, bufferPool: 32M, redoSize: 48M}
  disk: {fs: ext4, trigger: armed 16, size: 256M}
  load: {kind: builtin, connections: 4, tables: 4, rows: 3000, maxSeconds: 90}
scenarios:
  - {name: dw-on-4k, server: {doublewrite: on}, disk: {atomic: 4k}}
  - {name: dw-off-16k-bigalloc, server: {doublewrite: off}, disk: {atomic: 16k, fs: ext4-bigalloc16k}}
  - {name: dw-off-4k, server: {doublewrite: off}, disk: {atomic: 4k, fates: {tear: 1}}}
`,
);

t.test('a real campaign renders a report a reviewer can read', async (t) => {
  await ensureBuilt();
  const out = join(work, 'out');
  const run = await rig(['campaign', file, '--out', out], { RIG_CACHE: PREPARED_CACHE });
  t.comment(run.stdout);
  t.ok([0, 1].includes(run.exitCode ?? -1), `the campaign ran to a verdict (exit ${run.exitCode}): ${run.stderr.split('\n').slice(-3).join(' | ')}`);
  t.same(await leftoversUnder(work), [], 'the campaign left nothing mounted, attached or running');

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(join(out, 'index.html')).href;
  await page.goto(url);
  await page.waitForSelector('html[data-ready="1"]', { timeout: 10_000 });

  const verdict = (await page.locator('#verdict').innerText()).trim();
  t.match(verdict, /PASS|FAIL/, `the verdict line says pass or fail: ${verdict.split('\n')[0]}`);
  const cells = await page.locator('table.matrix td.cell:not(.cell-empty)').count();
  t.equal(cells, 3, 'the matrix has a cell per scenario');

  const id = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('cycle-data')!.textContent!) as { rows: [string, number, number, number, number][] };
    return data.rows.find((r) => r[4] > 0)?.[0] ?? '';
  });
  t.ok(id, 'the index lists a cycle with torn pages');
  if (!id) return;
  const link = page.getByRole('link', { name: id, exact: true }).first();
  t.equal(await link.count(), 1, 'the index links the torn cycle');
  const pageUrl = pathToFileURL(join(out, cyclePagesFolder('index.html'), cyclePageName(id))).href;
  await Promise.all([page.waitForURL(pageUrl), link.click()]);
  await page.waitForSelector('html[data-ready="1"]');
  const cycle = page.locator(`[id="${anchorId('cycle', id)}"]`);
  const boxes = await cycle.locator('table.torn .unit-map').first().locator('i').allInnerTexts();
  t.ok(boxes.includes('N') && boxes.some((b) => b !== 'N'), `the first torn page's unit map shows new and old units: ${boxes.join('')}`);
  t.ok((await cycle.locator('table.log-lines').count()) > 0, 'the cycle shows its error log excerpt');
  t.same(requests.filter((r) => !r.startsWith('file://')), [], 'no request left the page');

  const artifacts = resolve('.tap/artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.goto(url);
  await page.screenshot({ path: join(artifacts, 'real-campaign.png'), fullPage: true });
});
