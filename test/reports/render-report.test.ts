import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderReport } from '../../reports/render-report.js';
import { briefed } from '../../rig/results/cycle-brief.js';
import { pageHref, renderAll, savedRun } from '../fixtures/report/render-all.js';
import { writeReport } from '../../reports/write-report.js';
import { RigError } from '../../rig/errors.js';
import type { CampaignResults } from '../../rig/results/types.js';
import { copyQuickCampaign, quickResults } from '../fixtures/report/load-fixture.js';
import { generateCampaign } from '../../bench/synthetic-campaign.js';
import { gapSize, parseExcerpt } from '../../reports/sections/cycle/log-excerpt.js';
import { escapeHtml, html } from '../../reports/html.js';
import { commitRates, niceStep, shortNumber, throughputChart, ticks } from '../../reports/charts/throughput-chart.js';
import { unitMap } from '../../reports/charts/unit-map.js';

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
  const { results, logs } = await savedRun(run.dir);
  const { index, pages, all: page } = renderAll(results, logs);
  t.match(index, /^<!doctype html>/);
  t.match(page, /<p id="verdict" class="verdict verdict-pass"><span class="verdict-label">✓ PASS<\/span>/);
  t.match(page, /negative control tore pages in 3\/3 cycles/);
  t.match(page, /<table class="matrix">/);
  t.match(page, /doublewrite ON<\/th>/);
  t.match(page, /doublewrite OFF<\/th>/);
  for (const s of results.scenarios) t.ok(page.includes(`id="scenario-${s.name}"`), `scenario ${s.name} has a row`);
  for (const c of results.cycles) {
    t.ok(pages.get(c.id)!.includes(`<details class="cycle cycle-held" id="cycle-${c.id}" data-verdict="${c.verdict}" open>`), `cycle ${c.id} has its page`);
    t.ok(index.includes(`["${c.id}",`), `cycle ${c.id} is a row of the index's list`);
  }
  t.notOk(index.includes('<details class="cycle'), 'the index holds no cycle\'s details');
  t.match(pages.get('dw-on-4k-ext4-1')!, /<a href="\.\.\/index\.html">powercut-rig campaign report: /, 'a page links back to the index');
  t.ok(page.includes('cycles/dw-off-4k-ext4-1/error.log (kept evidence)'), 'the kept log is the excerpt source');
  t.ok(page.includes('<i class="n">N</i><i class="o">o</i>') || page.includes('<i class="o">o</i><i class="n">N</i>'), 'unit maps drawn');
  t.match(page, /<polyline class="series" points="[\d., ]+"\/>/);
  t.match(page, /⚡ power cut at \d+\.\d\d s/);
  t.match(page, /data-copy="repro-dw-on-4k-ext4-1"/);
  t.match(page, /<p class="sub exercised">Exercised: \d+ in-use torn pages with an accepted doublewrite copy, \d+ without one \(left to the redo log\), \d+ freed; \d+ page writes in flight at the cut/);
  // the fixture's records predate the doublewrite evidence: no page is said to have had no copy
  t.match(pages.get('dw-on-4k-ext4-1')!, /Exercised: 11 in-use torn pages \(the record predates the doublewrite evidence: which had an accepted copy is not known\), 0 freed;/);
});

t.test('the figures count what the run judged: cycles, or the states of explore recordings', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { results, logs } = await savedRun(run.dir);
  const live = renderAll(results, logs).index;
  t.match(live, /<li><b>\d+<\/b><span>cycles<\/span><\/li><li><b>[\d—]+<\/b><span>cycles per hour<\/span>/);
  for (const c of results.cycles) {
    c.explore = { recording: '../../recordings/x', barrier: 1, barrierKind: 'flush', barriers: 9, tUs: 1, durableWrites: 1, pick: 'targeted', run: `${c.scenario}-1`, runSeed: 1, of: 3 };
  }
  const explored = renderAll(results, logs).index;
  t.match(explored, /<li><b>\d+<\/b><span>states<\/span><\/li><li><b>[\d—]+<\/b><span>states per hour<\/span>/);
  t.notMatch(explored, /<span>cycles per hour<\/span>/);
});

t.test('the evidence section says what the campaign asked to keep, what it kept and why', async (t) => {
  const results = structuredClone(await quickResults());
  t.match(renderAll(results).index, /<section id="evidence"><h2>Evidence<\/h2><p class="sub">These results predate the evidence policy/, 'older results say so');
  // they say whether a cycle kept its evidence (evidenceDir), and that much is counted
  const olderKept = results.cycles.filter((c) => c.evidenceDir !== null).length;
  t.ok(olderKept > 0, `the fixture's records kept evidence for ${olderKept} cycles`);
  t.match(renderAll(results).index, new RegExp(`<p>Kept for <b>${olderKept}</b> of 9 cycles\\. <span class="sub">9 records are older than the evidence note: they say whether they kept evidence \\(${olderKept} did\\), not why or how much\\.</span></p>`));
  results.evidence = { keep: ['contradicting', 'findings', 'torn', 'sample'], sample: 1, maxBytes: 2 * 1024 ** 3 };
  for (const c of results.cycles) {
    const torn = c.tornPagesBefore.length > 0;
    c.evidence = torn ? { kept: 'torn', why: 'its crash image held 1 torn page(s)', bytes: 3 << 20 } : c.cycle === 1 ? { kept: 'sample', why: 'a sample: the first 1 of its scenario', bytes: 1 << 20 } : { kept: null, why: 'given up for the cap of 2G', bytes: 0 };
    c.evidenceDir = c.evidence.kept ? `cycles/${c.id}` : null;
  }
  const { index, pages } = renderAll(results);
  const torn = results.cycles.filter((c) => c.tornPagesBefore.length > 0).length;
  const sampled = results.cycles.filter((c) => c.tornPagesBefore.length === 0 && c.cycle === 1).length;
  t.match(index, /keeps evidence for cycles that contradicted their expectation, hit a known finding, held a torn page \(or a broken write order\), are among the first 1 of their scenario, within 2 GiB/);
  t.match(index, new RegExp(`Kept for <b>${torn + sampled}</b> of 9 cycles, [\\d.]+ MiB: ${torn} held a torn page \\(or a broken write order\\), ${sampled} the per-scenario sample\\. Given up for the cap: <b>${9 - torn - sampled}</b>\\.`));
  const given = results.cycles.find((c) => c.evidence!.kept === null)!;
  t.match(pages.get(given.id)!, /<p class="sub evidence">No evidence kept: given up for the cap of 2G; repro rebuilds/);
  const kept = results.cycles.find((c) => c.evidence!.kept === 'torn')!;
  t.match(pages.get(kept.id)!, new RegExp(`<p class="sub evidence">Evidence kept in <span class="mono">cycles/${kept.id}</span>, 3\\.0 MiB: its crash image held 1 torn page\\(s\\)\\.</p>`));
});

t.test('data is escaped: markup in a log line and a table named <script> render as text', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { results, logs } = await savedRun(run.dir);
  const { index, pages, all: page } = renderAll(results, logs);
  t.equal(count(index, '<script'), 2, 'the index: its own script and its data block');
  t.equal(count(index, '<script type="application/json" id="cycle-data">'), 1);
  for (const [id, p] of pages) t.equal(count(p, '<script'), 1, `the page of ${id}: its own script only`);
  t.notOk(page.includes('<img'), 'no image element from data');
  t.ok(page.includes('./sbtest/&lt;script&gt;window.__pwned=1&lt;/script&gt;.ibd &lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;'));
  t.ok(page.includes('./sbtest/&lt;script&gt;.ibd'));
  t.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
  const external = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!)
    .filter((u) => !/^(#|index-cycles\/cycle-[^/]+\.html$|cycle-[^/]+\.html$|\.\.\/index\.html(#|$)|\.\.\/cycles\/)/.test(u));
  t.same(external, [], 'every link stays in the report or the run folder');
});

function withBlindControl(results: CampaignResults): CampaignResults {
  const copy = structuredClone(results);
  const control = copy.scenarios.find((s) => s.expectation === 'torn-reproduced')!;
  Object.assign(control, { blind: true, held: false, tornCycles: 0, failures: ['blind: no torn page in 3 cycles'] });
  copy.outcome = 'fail';
  return copy;
}

t.test('a blind negative control fails the campaign and stands out above everything', async (t) => {
  const page = renderAll(withBlindControl(await quickResults())).all;
  t.match(page, /verdict-fail"><span class="verdict-label">✗ FAIL<\/span> <span class="verdict-why">1 of 3 scenarios failed: dw-off-4k-ext4 is blind/);
  const alarm = page.indexOf('class="alarm alarm-blind"');
  t.ok(alarm > 0 && alarm < page.indexOf('<ul class="stats">') && alarm < page.indexOf('id="matrix"'), 'alarm sits above the stats and the matrix');
  t.match(page, /The rig was blind: negative control &quot;dw-off-4k-ext4&quot; never tore a page/);
  t.match(page, /<td class="cell cell-blind">/);
});

function withVacuousDoublewrite(results: CampaignResults): CampaignResults {
  const copy = structuredClone(results);
  const on = copy.scenarios.find((s) => s.settings.server.doublewrite)!;
  const line = "vacuous: doublewrite exercised in 0 of 3 cycles (0%, below the scenario's 50%); its PASS would not show that doublewrite restores torn pages";
  Object.assign(on, { vacuous: true, held: false, exercise: { claim: 'doublewrite', cycles: 0, of: 3, minShare: 0.5 }, failures: [line] });
  copy.outcome = 'fail';
  return copy;
}

t.test('a doublewrite scenario that never exercised doublewrite fails as vacuous, and says how often it did', async (t) => {
  const results = await quickResults();
  const page = renderAll(withVacuousDoublewrite(results)).all;
  t.match(page, /verdict-fail"><span class="verdict-label">✗ FAIL<\/span> <span class="verdict-why">1 of 3 scenarios failed: dw-on-4k-ext4 is vacuous \(doublewrite exercised in 0 of 3 cycles\)/);
  const alarm = page.indexOf('class="alarm alarm-vacuous"');
  t.ok(alarm > 0 && alarm < page.indexOf('id="matrix"'), 'the alarm sits above the matrix');
  t.match(page, /Vacuous: &quot;dw-on-4k-ext4&quot; did not exercise what it claims/);
  t.match(page, /status status-vacuous">⚠ VACUOUS/);
  t.match(page, /<td class="cell cell-vacuous">/);
  const fine = structuredClone(results);
  fine.scenarios[0]!.exercise = { claim: 'doublewrite', cycles: 3, of: 3, minShare: 0.5 };
  t.match(renderAll(fine).all, /<td class="exercised"><span class="">doublewrite exercised in 3 of 3 cycles<\/span><div class="sub">needs 50%<\/div>/);
});

t.test('silent corruption and a page torn on a 16k-atomic disk raise alarms naming the cause', async (t) => {
  const { results } = await generateCampaign({ cycles: 14, preset: 'torn-pages', silentCorruption: true, seed: 7 });
  const page = renderAll(results).all;
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
  const running = renderAll({ ...results, outcome: 'running', finishedAt: null }).all;
  t.match(running, /… RUNNING<\/span> <span class="verdict-why">partial results: 9 of 9 cycles run so far/);
  const broken = structuredClone(results);
  broken.outcome = 'rig-error';
  Object.assign(broken.cycles[0]!, { verdict: 'rig-error', error: 'mariadbd did not become ready in 60 s' });
  const scenario = broken.scenarios.find((s) => s.name === broken.cycles[0]!.scenario)!;
  Object.assign(scenario, { held: false, verdictCounts: { ...scenario.verdictCounts, 'rig-error': 1 }, failures: ['dw-on-4k-ext4 #1: rig-error: mariadbd did not become ready in 60 s'] });
  const page = renderAll(broken).all;
  t.match(page, /⚙ RIG ERROR<\/span> <span class="verdict-why">the rig itself failed in 1 of 9 cycles; no database finding is claimed \(first: mariadbd did not become ready in 60 s\)/);
  t.match(page, /<tr id="scenario-dw-on-4k-ext4" class="st-rig-error">/, 'a rig error is not a failed expectation');
  t.match(page, /<details class="cycle cycle-rig" id="cycle-dw-on-4k-ext4-1"/);
  t.match(page, /<tr class="row-rig"><td class="mono"><a href="index-cycles\/cycle-dw-on-4k-ext4-1\.html">dw-on-4k-ext4-1<\/a>/, 'the index lists it among the problem cycles');
  t.match(page, /⚙ no verdict: the rig failed/);
  t.notMatch(page, /class="st-fail"|class="cell cell-fail"/);
});

t.test('writeReport writes DIR/index.html or --out, and refuses a bad folder as bad input', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const path = await writeReport(run.dir);
  t.equal(path, join(run.dir, 'index.html'));
  t.match(await readFile(path, 'utf8'), /✓ PASS/);
  // a version-1 run keeps its records in results.json: the footers name what was read
  t.match(await readFile(path, 'utf8'), /rendered from results\.json alone on /);
  t.match(await readFile(join(run.dir, 'index-cycles', 'cycle-dw-off-4k-ext4-1.html'), 'utf8'), /rendered from the cycle's record in results\.json on /);
  t.match(await readFile(join(run.dir, 'index-cycles', 'cycle-dw-off-4k-ext4-1.html'), 'utf8'), /href="\.\.\/cycles\/dw-off-4k-ext4-1\/error\.log"/, 'a page links its kept log');
  const elsewhere = await writeReport(run.dir, join(run.dir, 'cycles', 'r.html'));
  t.match(await readFile(elsewhere, 'utf8'), /"pages":"r-cycles"/, 'the index beside its pages folder');
  t.match(await readFile(join(run.dir, 'cycles', 'r-cycles', 'cycle-dw-off-4k-ext4-1.html'), 'utf8'), /href="\.\.\/dw-off-4k-ext4-1\/error\.log"/);
  t.match(await failure(writeReport(join(run.dir, 'nope'))), { code: 'bad-input', message: /not a folder/ });
  await writeFile(join(run.dir, 'cycles', 'results.json'), '{"version": 1');
  t.match(await failure(writeReport(join(run.dir, 'cycles'))), { code: 'bad-input', message: /cannot read campaign results/ });
  await writeFile(join(run.dir, 'cycles', 'results.json'), '{"version": 3}');
  t.match(await failure(writeReport(join(run.dir, 'cycles'))), { code: 'bad-input', message: /not a campaign's results \(version: / });
  t.match(await failure(writeReport(join(run.dir, 'cycles', 'dw-on-4k-ext4-1'))), { code: 'bad-input', message: /results\.json not found/ });
});

t.test('the index of a generated 1,000-cycle campaign stays small: each cycle is a brief row', async (t) => {
  const { results } = await generateCampaign({ cycles: 1000, preset: 'torn-pages' });
  const index = renderReport({ results: briefed(results), pages: 'index-cycles' });
  t.ok(Buffer.byteLength(index) < 200 * 1024, `${Buffer.byteLength(index)} bytes`);
  t.equal(count(index, '],['), 999, 'every cycle is a row of the data block');
});

t.test('log lines that name a page say whether the disk tore it', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { results, logs } = await savedRun(run.dir);
  const cycle = renderAll(results, logs).pages.get('dw-off-4k-ext4-1')!;
  t.match(cycle, /corrupted page 198 in file \.\/ibdata1 <span class="tag gt-torn">disk tore this page<\/span>/);
  t.match(cycle, /corrupted page 202 in file \.\/ibdata1 <span class="tag gt-intact">not torn at the cut<\/span>/);
  t.match(cycle, /<tr class="gap"><td><\/td><td>⋯ 8 lines not shown<\/td><\/tr>/, 'a leading gap counts the lines before the first shown');
});

t.test('the excerpt format of rig/logs is read with its own line numbers', async (t) => {
  const rows = parseExcerpt('...\n 15: a\n 16: b\n...\n 40: c\n...\n(3 more classified lines not shown)');
  t.same(rows, [{ gap: true }, { n: 15, text: 'a' }, { n: 16, text: 'b' }, { gap: true }, { n: 40, text: 'c' }, { gap: true }, { note: '(3 more classified lines not shown)' }]);
  t.equal(gapSize(rows, 0, null), 14);
  t.equal(gapSize(rows, 3, null), 23);
  t.equal(gapSize(rows, 5, 50), 10);
  t.equal(gapSize(rows, 5, null), null);
  t.same(parseExcerpt('plain\nlines'), [{ n: 1, text: 'plain' }, { n: 2, text: 'lines' }]);
});

t.test('the matrix adds page size to its rows only where page sizes vary', async (t) => {
  const results = await quickResults();
  t.notMatch(renderAll(results).all, /filesystem · page size/);
  const varied = structuredClone(results);
  varied.scenarios[0]!.settings.server.pageSize = 4096;
  const page = renderAll(varied).all;
  t.match(page, /filesystem · page size/);
  t.match(page, /<th class="row-head">ext4 \(default\) · 4k pages<\/th>/);
  t.match(page, /<th class="row-head">ext4 \(default\) · 16k pages<\/th>/);
});

t.test('the matrix leads its rows with the server and engine only where servers vary', async (t) => {
  const results = await quickResults();
  t.notMatch(renderAll(results).all, /server · filesystem/);
  const varied = structuredClone(results);
  const [first, second] = varied.scenarios;
  for (const c of varied.cycles) {
    if (c.scenario === first!.name) c.server = { version: 'mariadbd 11.8.9-MariaDB-0+deb13u1', innodb: [] };
  }
  second!.settings.server.engine = 'rocksdb';
  const page = renderAll(varied).all;
  t.match(page, /<th rowspan="2" class="corner">server · filesystem<\/th>/);
  t.match(page, /<th class="row-head">mariadbd 11\.8\.9-MariaDB-0\+deb13u1 · ext4 \(default\)<\/th>/);
  t.match(page, /<th class="row-head">[^<]+ · RocksDB · [^<]+<\/th>/, 'the engine is part of the server');
});

t.test('units: escaping, chart steps, tick labels, unit maps', async (t) => {
  t.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  t.equal(html`<p>${'<b>'}${html`<i>ok</i>`}${[1, null, false, 'x']}</p>`.value, '<p>&lt;b&gt;<i>ok</i>1x</p>');
  t.same([niceStep(7), niceStep(40), niceStep(900)], [2, 10, 500]);
  t.same([shortNumber(900), shortNumber(1500), shortNumber(150000)], ['900', '1.5k', '150k']);
  t.same([ticks(636), ticks(600), ticks(7.83)], [[0, 200, 400, 600, 800], [0, 200, 400, 600], [0, 2, 4, 6, 8]], 'the last tick holds the largest value');
  t.match(unitMap([true, false, true, true]).value, /title="3 of 4 atomic units hold the newest version, 1 an older one"><i class="n">N<\/i><i class="o">o<\/i><i class="n">N<\/i><i class="n">N<\/i>/);
  t.match(unitMap(Array.from({ length: 32 }, (_, i) => i < 5)).value, /class="unit-map dense"/);
});

/** Commits counted in a step: its rate over its real interval. */
const commitsIn = (s: { fromS: number; toS: number; rate: number }) => s.rate * (s.toS - s.fromS);

t.test('throughput: rates over the intervals the commits were counted in', async (t) => {
  // 1,654 commits acknowledged in 1.9 s, in the load's 250 ms buckets (each at its start), cut at 1.9 s
  const counts = [210, 218, 220, 215, 222, 219, 216, 134];
  const points = counts.map((commits, i) => ({ tMs: i * 250, commits }));
  const steps = commitRates(points, 1900);
  t.same(steps.map((s) => [s.fromS, s.toS]), counts.map((_, i) => [i * 0.25, i === 7 ? 1.9 : (i + 1) * 0.25]), 'each bucket over its own 250 ms, the last up to the cut');
  t.same(steps.slice(0, 3).map((s) => s.rate), [840, 872, 880], 'commits per second, not per bucket');
  t.equal(Math.round(steps[7]!.rate), 893, 'the last bucket over the 150 ms it lasted');
  t.ok(Math.max(...steps.map((s) => s.rate)) < 1000, 'no spike at the start');
  t.equal(Math.round(steps.reduce((n, s) => n + commitsIn(s), 0)), 1654, 'every commit counted once');

  const long = Array.from({ length: 400 }, (_, i) => ({ tMs: i * 250, commits: 10 }));
  const merged = commitRates(long, null);
  t.ok(merged.length <= 90, `${merged.length} steps for 400 buckets`);
  t.same(new Set(merged.map((s) => s.rate)), new Set([40]), 'merged buckets keep the rate');
  t.equal(Math.round(merged.reduce((n, s) => n + commitsIn(s), 0)), 4000, 'no commit lost by merging buckets');

  t.same(commitRates([{ tMs: 0, commits: 30 }], 120), [{ fromS: 0, toS: 0.12, rate: 250 }], 'a lone bucket ran until the cut');
  t.same(commitRates([], 1000), []);
  const svg = throughputChart(points, 1900).value;
  t.match(svg, />commits per second</, 'the rate axis says its unit');
  t.match(svg, />seconds since the load started</);
  t.notMatch(svg, />1[0-9]{5}</, 'no tick near 150,000');
});

t.test('the log excerpt keeps every kind in view and says how many pages the disk really tore', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { results, logs } = await savedRun(run.dir);
  const cycle = renderAll(results, logs).pages.get('dw-off-4k-ext4-1')!;
  for (const kind of ['recovery-start', 'corruption', 'lsn-in-future', 'abort', 'error']) {
    t.match(cycle, new RegExp(`<tr class="k-${kind}">`), `a ${kind} line is shown`);
  }
  t.match(cycle, /The log names 75 pages as damaged or ahead of the log; the disk tore <b>1<\/b> of them at the cut/);
  t.match(cycle, /\(69 more classified lines not shown\)/);
});

t.test('a lost commit stands out above everything and shows in its cycle ledger', async (t) => {
  const results = structuredClone(await quickResults());
  const cycle = results.cycles[1]!;
  Object.assign(cycle, { verdict: 'lost-commit', expectationHeld: false, reason: '3 acknowledged commits missing after recovery', ledger: { checked: true, acked: 2048, missing: 3 } });
  results.outcome = 'fail';
  const page = renderAll(results).all;
  const alarm = page.indexOf('class="alarm alarm-lost-commit"');
  t.ok(alarm > 0 && alarm < page.indexOf('id="matrix"'), 'the alarm sits above the matrix');
  t.match(page, /Lost commits in 1 cycle/);
  t.ok(page.includes(`<a href="${pageHref(cycle.id)}">${cycle.id}</a> </p>`), 'the alarm links to the cycle\'s page');
  t.match(page, /✗ 3 of 2048 acknowledged commits missing/);
  t.match(page, /chip v-lost-commit">LOST COMMIT/);
});

t.test('a crash after recovery raises the server alarm and its cycle shows how the server ended', async (t) => {
  const results = structuredClone(await quickResults());
  const cycle = results.cycles[1]!;
  const recovery = { bounds: { startMs: 120_000, checksMs: 600_000 }, readyMs: 1850, endedIn: 'checks' as const, timedOut: null, exit: { exitCode: null, signal: 'SIGSEGV' }, shutdown: 'not-reached' as const, checksError: 'Connection lost: The server closed the connection.' };
  Object.assign(cycle, { verdict: 'crashed', expectationHeld: false, reason: 'the server died during the checks (signal SIGSEGV)', recovery });
  const reported = results.cycles[2]!;
  Object.assign(reported, { verdict: 'reported-corruption', expectationHeld: false, reason: 'CHECK TABLE failed on 1 of 4; its log reported corruption' });
  results.outcome = 'fail';
  const page = renderAll(results).all;
  t.match(page, /class="alarm alarm-server-failure"/);
  t.match(page, /The server crashed or hung in 1 cycle/);
  t.match(page, /class="alarm alarm-reported-corruption"/);
  t.match(page, /chip v-crashed">CRASHED/);
  t.match(page, /chip v-reported-corruption">REPORTED CORRUPTION/);
  t.match(page, /<dt>ready after<\/dt><dd>1.9 s<\/dd>/);
  t.match(page, /<dd class="mono">signal SIGSEGV<\/dd>/);
  t.match(page, /Connection lost: The server closed the connection\./);
  t.match(page, /The pages are not scanned after this unclean end/);
  t.match(page, /Not recorded \(the cycle did not reach recovery, or the record predates it\)/, 'an older record without the run still renders');
});

t.test('a torn page 0 shows how the server looks its copy up, its log lines and the finding, escaped', async (t) => {
  const results = structuredClone(await quickResults());
  const cycle = results.cycles.find((c) => c.tornPagesBefore.length > 0)!;
  cycle.tornPagesBefore.push({
    ...cycle.tornPagesBefore[0]!, file: './sbtest/sbtest3.ibd', space: 9, page: 0, validAfter: false,
    doublewrite: { checkpointLsn: 10711542, copies: [], restorable: true, why: 'restorable from ./ibdata1 slot 91 (LSN 10953477)' },
    page0: {
      path: 'header', headerSpaceId: 9, firstPages: [{ page: 1, state: 'valid' }, { page: 2, state: 'valid' }, { page: 3, state: 'zero' }],
      serverLog: ['[ERROR] InnoDB: The first page of file ./sbtest/sbtest3.ibd is corrupted <b> (x28)'],
      finding: 'page 0 of ./sbtest/sbtest3.ibd had a doublewrite copy the server\'s rules accept, yet the server did not restore it',
    },
  });
  const page = renderAll(results).all;
  t.match(page, /<b>Page 0 of <span class="mono">\.\/sbtest\/sbtest3\.ibd<\/span><\/b>: the server looks its copy up by the space id in the torn page&#39;s own header/);
  t.match(page, /header space id 9; pages 1 valid, 2 valid, 3 zero\)\. restorable from \.\/ibdata1 slot 91 \(LSN 10953477\)\./);
  t.match(page, /<li>\[ERROR\] InnoDB: The first page of file \.\/sbtest\/sbtest3\.ibd is corrupted &lt;b&gt; \(x28\)<\/li>/);
  t.match(page, /<p class="bad">Finding: page 0 of \.\/sbtest\/sbtest3\.ibd had a doublewrite copy the server&#39;s rules accept, yet the server did not restore it\.<\/p>/);
});
