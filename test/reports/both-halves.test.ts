/** The report's safety-and-benefit section, as markup: both halves, their numbers, the claimed figure, escaped. */
import t from 'tap';
import { briefed } from '../../rig/results/cycle-brief.js';
import { renderAll } from '../fixtures/report/render-all.js';
import { bothHalvesSection } from '../../reports/sections/both-halves.js';
import { pairRatios } from '../../rig/perf/pair-ratios.js';
import { quickResults } from '../fixtures/report/load-fixture.js';
import { resultsWithPerf } from '../fixtures/report/with-perf.js';

t.test('no perf scenario, no section', async (t) => {
  const results = await quickResults();
  t.equal(bothHalvesSection(briefed(results)), null);
  t.notMatch(renderAll(results).index, /both-halves/);
});

t.test('ratios come from the pairs with figures', async (t) => {
  const results = await resultsWithPerf();
  const r = pairRatios(results.perf!);
  t.equal(r.measured, 3);
  t.equal(r.failed, 1);
  t.same(r.writeQps!.pairs, [1.5, 1.2, 1.4]);
  t.equal(r.writeQps!.median, 1.4);
  t.same(r.p99Ms!.pairs, [0.5, 0.5, 0.5]);
  t.same(pairRatios([]), { measured: 0, failed: 0, writeQps: null, tps: null, p99Ms: null });
});

t.test('safety next to benefit, with the claimed figure', async (t) => {
  const page = renderAll(await resultsWithPerf()).index;
  t.match(page, /<a href="#both-halves">/, 'in the table of contents');
  t.match(page, /torn pages: never in 3 cycles/);
  t.match(page, /write QPS: \+40% on profile essd/);
  t.match(page, /\+40% median of 3 pairs, \+20% to \+50%/);
  t.match(page, /1 pair\(s\) failed/);
  t.match(page, /\+47% on Premium ESSD/);
});

t.test('torn pages in the safety scenario are counted, and a setting without one says so', async (t) => {
  const torn = await resultsWithPerf();
  torn.scenarios.find((s) => s.name === 'dw-off-16k-bigalloc')!.tornCycles = 1;
  t.match(String(bothHalvesSection(briefed(torn))), /torn pages: in 1 of 3 cycles/);
  const other = await resultsWithPerf();
  other.scenarios.find((s) => s.name === 'perf-essd')!.settings.disk.profile = 'local';
  t.match(String(bothHalvesSection(briefed(other))), /torn pages: not checked here/);
  const none = await resultsWithPerf();
  none.perf = none.perf!.filter((p) => p.error);
  t.match(String(bothHalvesSection(briefed(none))), /write QPS: not measured.*1 pair failed/s);
});

t.test('a profile named with markup is shown as text', async (t) => {
  const results = await resultsWithPerf('<img src=x onerror=alert(1)>');
  results.scenarios.find((s) => s.name === 'perf-essd')!.settings.disk.profile = '<img src=x onerror=alert(1)>';
  const section = String(bothHalvesSection(briefed(results)));
  t.notMatch(section, /<img/);
  t.match(section, /on profile &lt;img src=x onerror=alert\(1\)&gt;/);
});

t.test('a perf scenario is in no table of cut scenarios, and a failed pair is named in the headline', async (t) => {
  const results = await resultsWithPerf();
  const page = renderAll(results).index;
  t.notMatch(page, /id="scenario-perf-essd"/, 'not in the scenarios table');
  t.match(page, /every expectation held: 3 scenarios/, 'the headline counts the scenarios that cut');
  t.match(page, /<li><b>3<\/b><span>scenarios<\/span><\/li><li><b>1<\/b><span>perf scenarios<\/span><\/li>/, 'and so does the figures strip, the perf one beside them');
  const failedRun = { ...results, outcome: 'rig-error' as const };
  t.match(renderAll(failedRun).index, /the rig itself failed in 1 of 4 perf pairs; no database finding is claimed \(first: sysbench failed: &lt;b&gt;FATAL&lt;\/b&gt;\)/);
});

t.test('a run short of its perf pairs says so in the headline, as one short of its cycles does', async (t) => {
  const results = await resultsWithPerf();
  const ok = results.perf!.filter((p) => p.error === null);
  const perfScenario = results.scenarios.find((s) => s.name === 'perf-essd')!;
  const short = { ...results, perf: ok.slice(1), scenarios: results.scenarios.map((s) => (s === perfScenario ? { ...s, pairsPlanned: ok.length } : s)), outcome: 'rig-error' as const };
  t.match(renderAll(short).index, new RegExp(`the run is incomplete: perf pairs missing \\(perf-essd: ${ok.length - 1}/${ok.length} run\\); no database finding is claimed`));
  const unrun = { ...results, perf: ok, scenarios: results.scenarios.map((s) => (s.name === 'dw-off-16k-bigalloc' ? { ...s, cyclesPlanned: s.cyclesRun + 2 } : s)), outcome: 'rig-error' as const };
  t.match(renderAll(unrun).index, /the run is incomplete: 2 planned cycles never ran; no database finding is claimed/);
});
