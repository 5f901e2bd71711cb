import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderReport } from '../../reports/render-report.js';
import { loadRun } from '../../reports/load-run.js';
import { writeReport } from '../../reports/write-report.js';
import { RigError } from '../../rig/errors.js';
import type { CampaignResults } from '../../rig/results/types.js';
import { copyQuickCampaign, quickResults } from '../fixtures/report/load-fixture.js';
import { generateCampaign } from '../fixtures/report/generate-campaign.js';

const count = (text: string, needle: string) => text.split(needle).length - 1;

async function failure(promise: Promise<unknown>): Promise<RigError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RigError) return error;
    throw error;
  }
  throw new Error('expected a RigError');
}

t.test('the quick campaign renders with its verdict, matrix, scenarios and every cycle', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { results, logs } = await loadRun(run.dir);
  const page = renderReport({ results, logs });
  t.match(page, /^<!doctype html>/);
  t.match(page, /<p id="verdict" class="verdict verdict-pass"><span class="verdict-label">✓ PASS<\/span>/);
  t.match(page, /negative control tore pages in 3\/3 cycles/);
  t.match(page, /<table class="matrix">/);
  t.match(page, /doublewrite ON<\/th>/);
  t.match(page, /doublewrite OFF<\/th>/);
  for (const s of results.scenarios) t.ok(page.includes(`id="scenario-${s.name}"`), `scenario ${s.name} has a row`);
  for (const c of results.cycles) t.ok(page.includes(`<details class="cycle cycle-held" id="cycle-${c.id}"`), `cycle ${c.id} is linkable`);
  t.ok(page.includes('cycles/dw-off-4k-ext4-1/error.log (kept evidence)'), 'the kept log is the excerpt source');
  t.ok(page.includes('<i class="n">N</i><i class="o">o</i>') || page.includes('<i class="o">o</i><i class="n">N</i>'), 'unit maps drawn');
  t.match(page, /<polyline class="series" points="[\d., ]+"\/>/);
  t.match(page, /⚡ power cut at \d+\.\d\d s/);
  t.match(page, /data-copy="repro-dw-on-4k-ext4-1"/);
});

t.test('data is escaped: markup in a log line and a table named <script> render as text', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { results, logs } = await loadRun(run.dir);
  const page = renderReport({ results, logs });
  t.equal(count(page, '<script'), 1, 'the report\'s own script is the only one');
  t.notOk(page.includes('<img'), 'no image element from data');
  t.ok(page.includes('./sbtest/&lt;script&gt;window.__pwned=1&lt;/script&gt;.ibd &lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;'));
  t.ok(page.includes('./sbtest/&lt;script&gt;.ibd'));
  t.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
  const external = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('#') && !u.startsWith('cycles/'));
  t.same(external, [], 'every link stays in the page or the run folder');
});

function withBlindControl(results: CampaignResults): CampaignResults {
  const copy = structuredClone(results);
  const control = copy.scenarios.find((s) => s.expectation === 'torn-reproduced')!;
  Object.assign(control, { blind: true, held: false, tornCycles: 0, failures: ['blind: no torn page in 3 cycles'] });
  copy.outcome = 'fail';
  return copy;
}

t.test('a blind negative control fails the campaign and stands out above everything', async (t) => {
  const page = renderReport({ results: withBlindControl(await quickResults()) });
  t.match(page, /verdict-fail"><span class="verdict-label">✗ FAIL<\/span> <span class="verdict-why">1 of 3 scenarios contradicted their expectation: dw-off-4k-ext4 is blind/);
  const alarm = page.indexOf('class="alarm alarm-blind"');
  t.ok(alarm > 0 && alarm < page.indexOf('<ul class="stats">') && alarm < page.indexOf('id="matrix"'), 'alarm sits above the stats and the matrix');
  t.match(page, /The rig was blind: negative control &quot;dw-off-4k-ext4&quot; never tore a page/);
  t.match(page, /<td class="cell cell-blind">/);
});

t.test('silent corruption and a page torn on a 16k-atomic disk raise alarms naming the cause', async (t) => {
  const { results } = await generateCampaign({ cycles: 14, preset: 'torn-pages', silentCorruption: true, seed: 7 });
  const page = renderReport({ results });
  t.match(page, /class="alarm alarm-silent-corruption"/);
  t.match(page, /Silent corruption in 1 cycle/);
  t.match(page, /class="alarm alarm-torn-where-atomic"/);
  t.match(page, /page writes straddled a 16 KiB atomic-unit boundary at the disk \(the xfs filesystem/);
  t.match(page, /<p class="cause"><b>Cause:<\/b>/);
  t.match(page, /chip v-silent-corruption">SILENT CORRUPTION/);
  t.match(page, /✗ FAIL/);
});

t.test('a running and a rig-error campaign say so in the verdict line', async (t) => {
  const results = await quickResults();
  const running = renderReport({ results: { ...results, outcome: 'running', finishedAt: null } });
  t.match(running, /… RUNNING<\/span> <span class="verdict-why">partial results: 9 of 9 cycles run so far/);
  const broken = structuredClone(results);
  broken.outcome = 'rig-error';
  Object.assign(broken.cycles[0]!, { verdict: 'rig-error', error: 'mariadbd did not become ready in 60 s' });
  const scenario = broken.scenarios.find((s) => s.name === broken.cycles[0]!.scenario)!;
  Object.assign(scenario, { held: false, verdictCounts: { ...scenario.verdictCounts, 'rig-error': 1 }, failures: ['dw-on-4k-ext4 #1: rig-error: mariadbd did not become ready in 60 s'] });
  const page = renderReport({ results: broken });
  t.match(page, /⚙ RIG ERROR<\/span> <span class="verdict-why">the rig itself failed in 1 of 9 cycles; no database finding is claimed \(first: mariadbd did not become ready in 60 s\)/);
  t.match(page, /<tr id="scenario-dw-on-4k-ext4" class="st-rig-error">/, 'a rig error is not a failed expectation');
  t.match(page, /<details class="cycle cycle-rig" id="cycle-dw-on-4k-ext4-1"/);
  t.match(page, /⚙ no verdict: the rig failed/);
  t.notMatch(page, /class="st-fail"|class="cell cell-fail"/);
});

t.test('writeReport writes DIR/index.html or --out, and refuses a bad folder as bad input', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const path = await writeReport(run.dir);
  t.equal(path, join(run.dir, 'index.html'));
  t.match(await readFile(path, 'utf8'), /✓ PASS/);
  const elsewhere = await writeReport(run.dir, join(run.dir, 'cycles', 'r.html'));
  t.match(await readFile(elsewhere, 'utf8'), /href="\.\.\/cycles\/dw-off-4k-ext4-1\/error\.log"|href="dw-off-4k-ext4-1\/error\.log"/);
  t.match(await failure(writeReport(join(run.dir, 'nope'))), { code: 'bad-input', message: /not a folder/ });
  await writeFile(join(run.dir, 'cycles', 'results.json'), '{"version": 1');
  t.match(await failure(writeReport(join(run.dir, 'cycles'))), { code: 'bad-input', message: /not valid JSON/ });
  await writeFile(join(run.dir, 'cycles', 'results.json'), '{"version": 2}');
  t.match(await failure(writeReport(join(run.dir, 'cycles'))), { code: 'bad-input', message: /version is 2, expected 1/ });
  t.match(await failure(writeReport(join(run.dir, 'cycles', 'dw-on-4k-ext4-1'))), { code: 'bad-input', message: /results\.json not found/ });
});

t.test('a generated 100-cycle campaign stays under 2 MB', async (t) => {
  const { results, logs } = await generateCampaign({ cycles: 100, preset: 'torn-pages' });
  const page = renderReport({ results, logs: new Map([...logs].map(([id, text]) => [id, { text, firstLine: 1, origin: 'kept' }])) });
  t.ok(Buffer.byteLength(page) < 2 * 1024 * 1024, `${Buffer.byteLength(page)} bytes`);
});
