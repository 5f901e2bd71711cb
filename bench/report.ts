/**
 * How the HTML report scales: renders a generated 100-cycle campaign and a 10-cycle baseline
 * (same generator, same run), prints each file's size and its load time in headless Chromium
 * (median of 5 cold page loads, navigation start to the load event), and the ratios.
 * Targets: the 100-cycle report under 2 MB and under 2 s.
 * Run from the project root: `make build && node dist/bench/report.js`.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { writeReport } from '../reports/write-report.js';
import { generateCampaign, writeCampaign } from './synthetic-campaign.js';

const RUNS = 5;

async function renderCampaign(root: string, cycles: number): Promise<string> {
  const dir = join(root, `c${cycles}`);
  await writeCampaign(dir, await generateCampaign({ cycles, preset: 'torn-pages' }));
  return writeReport(dir);
}

async function loadMs(browser: Browser, file: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    times.push(await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return nav.loadEventEnd - nav.startTime;
    }));
    await page.close();
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'rig-bench-report-'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const rows: { cycles: number; bytes: number; ms: number }[] = [];
    for (const cycles of [10, 100]) {
      const file = await renderCampaign(root, cycles);
      rows.push({ cycles, bytes: (await stat(file)).size, ms: await loadMs(browser, file) });
    }
    for (const r of rows) console.log(`report ${String(r.cycles).padStart(3)} cycles: ${r.bytes} bytes (${(r.bytes / 1048576).toFixed(2)} MiB), load ${r.ms.toFixed(0)} ms (median of ${RUNS})`);
    const [small, big] = rows as [typeof rows[0], typeof rows[0]];
    console.log(`ratio 100/10: size ${(big.bytes / small.bytes).toFixed(2)}x, load ${(big.ms / small.ms).toFixed(2)}x`);
    const ok = big.bytes < 2 * 1024 * 1024 && big.ms < 2000;
    console.log(`targets (100 cycles under 2 MB and under 2000 ms): ${ok ? 'met' : 'MISSED'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
