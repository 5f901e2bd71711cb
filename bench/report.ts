/**
 * How the HTML report scales: generated campaigns of 100, 1,000 and 10,000 cycles (the same
 * generator, built from recorded error logs and realistic records), each rendered by writeReport
 * and opened in headless Chromium. Per size: the records' file, the index's size, the render time,
 * the index's load time (median of 5 cold loads, navigation start to the load event), the time to
 * open a cycle's page from the index's list (click to its load event, median of 5), and the time a
 * filter takes to redraw the list (median of 5 changes), and the time "Show more" takes to add a
 * page of rows (median of up to 5 clicks on one page, as long as there are rows to add); the
 * ratios to the 100-cycle figures. Targets at 10,000 cycles: index under 2 MB, load under 2 s, a
 * cycle page under 1 s, a filter and "Show more" each under 200 ms. Run from the project root:
 * `make build && node dist/bench/report.js [sizes...]`.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { writeReport } from '../reports/write-report.js';
import { generateCampaign, writeCampaign } from './synthetic-campaign.js';

const RUNS = 5;
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);

interface Row {
  cycles: number;
  recordsBytes: number;
  indexBytes: number;
  renderMs: number;
  loadMs: number;
  pageMs: number;
  filterMs: number;
  moreMs: number | null; // null: every row was shown at once
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function openIndex(browser: Browser, file: string): Promise<{ page: Page; ms: number }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const ms = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return nav.loadEventEnd - nav.startTime;
  });
  return { page, ms };
}

async function loadMs(browser: Browser, file: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { page, ms } = await openIndex(browser, file);
    times.push(ms);
    await page.close();
  }
  return median(times);
}

/** Click the list's n-th row link; time until the cycle's page has loaded. */
async function pageMs(browser: Browser, file: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { page } = await openIndex(browser, file);
    const link = page.locator('#cycle-rows tr a').nth(i * 7);
    const started = Date.now();
    await Promise.all([page.waitForURL(/-cycles\/cycle-[^/]+\.html$/, { waitUntil: 'load' }), link.click()]);
    times.push(Date.now() - started);
    await page.close();
  }
  return median(times);
}

/** Change the verdict or scenario filter; time in the page until the list is redrawn. */
async function filterMs(browser: Browser, file: string): Promise<number> {
  const { page } = await openIndex(browser, file);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const which = i % 2 === 0 ? 'scenario' : 'verdict';
    times.push(await page.evaluate(async (name) => {
      const select = document.querySelector(`[data-filter="${name}"]`) as HTMLSelectElement;
      select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
      const started = performance.now();
      select.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); // the redraw painted
      return performance.now() - started;
    }, which));
  }
  await page.close();
  return median(times);
}

/** Click "Show more" while it is there; time in the page until the added rows are painted. */
async function moreMs(browser: Browser, file: string): Promise<number | null> {
  const { page } = await openIndex(browser, file);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ms = await page.evaluate(async () => {
      const button = document.querySelector('button[data-action="more"]') as HTMLButtonElement;
      if (button.hidden) return null;
      const started = performance.now();
      button.click();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); // the rows painted
      return performance.now() - started;
    });
    if (ms === null) break;
    times.push(ms);
  }
  await page.close();
  return times.length ? median(times) : null;
}

async function measure(browser: Browser, root: string, cycles: number): Promise<Row> {
  const dir = join(root, `c${cycles}`);
  await writeCampaign(dir, await generateCampaign({ cycles, preset: 'torn-pages' }));
  const started = Date.now();
  const file = await writeReport(dir);
  const renderMs = Date.now() - started;
  return {
    cycles,
    recordsBytes: (await stat(join(dir, 'cycles.jsonl'))).size,
    indexBytes: (await stat(file)).size,
    renderMs,
    loadMs: await loadMs(browser, file),
    pageMs: await pageMs(browser, file),
    filterMs: await filterMs(browser, file),
    moreMs: await moreMs(browser, file),
  };
}

const more = (ms: number | null) => (ms === null ? 'not shown (every row fits)' : `${ms.toFixed(1)} ms`);
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MiB`;

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'rig-bench-report-'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const rows: Row[] = [];
    for (const cycles of SIZES.length ? SIZES : [100, 1000, 10000]) {
      const row = await measure(browser, root, cycles);
      rows.push(row);
      console.log(`report ${String(cycles).padStart(6)} cycles: records ${mib(row.recordsBytes)}, index ${mib(row.indexBytes)}, rendered in ${(row.renderMs / 1000).toFixed(1)} s; ` +
        `index load ${row.loadMs.toFixed(0)} ms, a cycle page from the list ${row.pageMs.toFixed(0)} ms, ` +
        `a filter ${row.filterMs.toFixed(1)} ms, "Show more" ${more(row.moreMs)} (medians of up to ${RUNS})`);
    }
    const base = rows[0]!;
    for (const r of rows.slice(1)) {
      console.log(`ratio ${r.cycles}/${base.cycles} cycles: index size ${(r.indexBytes / base.indexBytes).toFixed(2)}x, load ${(r.loadMs / base.loadMs).toFixed(2)}x, ` +
        `cycle page ${(r.pageMs / base.pageMs).toFixed(2)}x, filter ${(r.filterMs / base.filterMs).toFixed(2)}x, render ${(r.renderMs / base.renderMs).toFixed(2)}x`);
    }
    const big = rows.at(-1)!;
    const ok = big.indexBytes < 2 * 1024 * 1024 && big.loadMs < 2000 && big.pageMs < 1000 &&
      big.filterMs < 200 && (big.moreMs ?? 0) < 200;
    console.log(`targets at ${big.cycles} cycles (index under 2 MB, load under 2000 ms, a cycle page under 1000 ms, ` +
      `a filter and "Show more" under 200 ms): ${ok ? 'met' : 'MISSED'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
