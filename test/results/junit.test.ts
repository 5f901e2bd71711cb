import t from 'tap';
import { renderJunit } from '../../rig/results/junit.js';
import { escapeXml } from '../../rig/results/xml-escape.js';
import { campaignOutcome, summarizeScenario } from '../../rig/results/summarize.js';
import type { CampaignResults, Expectation, ScenarioSettings, Verdict } from '../../rig/results/types.js';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import { cycleRecord } from '../fixtures/cycle-record.js';
import { findAll, parseXml } from '../fixtures/xml-check.js';

function settings(name: string, expect: Expectation): ScenarioSettings {
  return { name, runtime: 'local', server: DEFAULT_SERVER, disk: DEFAULT_DISK, load: DEFAULT_LOAD, expect };
}

const NASTY = `page 3 <torn> & "odd" 'quoted' ]]> \u0001\u001b[31m bell\u0007 \uD800 tail`;

function results(): CampaignResults {
  const on = settings('dw-on', 'recovers');
  const control = settings('dw-off-4k', 'torn-reproduced');
  const plan: [ScenarioSettings, Verdict, number, string?][] = [
    [on, 'restored', 7], [on, 'lost-commit', 0, NASTY], [on, 'rig-error', 0, NASTY],
    [control, 'no-torn', 0], [control, 'no-torn', 0],
  ];
  const cycles = plan.map(([s, verdict, torn, reason], i) =>
    cycleRecord({ id: `${s.name}-${i + 1}`, scenario: s.name, cycle: i + 1, seed: i }, s, verdict, torn, reason ? { reason, error: reason } : {}),
  );
  const scenarios = [on, control].map((s) =>
    summarizeScenario({ settings: s, cyclesPlanned: cycles.filter((c) => c.scenario === s.name).length }, cycles.filter((c) => c.scenario === s.name)),
  );
  return {
    version: 2, campaign: 'quick & <dirty>', file: 'c.yml', commandLine: 'rig campaign c.yml', startedAt: '2024-01-01T00:00:00Z',
    finishedAt: '2024-01-01T00:10:00Z', shard: null, seed: 1,
    environment: { server: 'mariadbd', serverVersion: '10.11', kernel: '6.1', node: 'v20', rigVersion: '0.1.0', hostname: 'h' },
    scenarios, cycles, outcome: campaignOutcome(scenarios, true), cyclesPerHour: 30,
  };
}

t.test('junit.xml is well-formed, with a suite per scenario and a case per cycle', async (t) => {
  const root = parseXml(renderJunit(results()));
  t.equal(root.name, 'testsuites');
  t.equal(root.attributes.name, 'quick & <dirty>', 'the campaign name survives escaping');
  const suites = findAll(root, 'testsuite');
  t.same(suites.map((s) => s.attributes.name), ['dw-on', 'dw-off-4k']);
  const [on, control] = suites;
  t.same(findAll(on!, 'testcase').map((c) => c.attributes.name), ['dw-on-1', 'dw-on-2', 'dw-on-3', 'exercised its claim']);
  t.same([on!.attributes.tests, on!.attributes.failures, on!.attributes.errors], ['4', '1', '1']);
  t.equal(on!.attributes.time, '12.000', 'time from the cycle timings');
  t.equal(findAll(on!, 'property').find((p) => p.attributes.name === 'expect')!.attributes.value, 'recovers');
  t.same([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['7', '2', '1']);
});

t.test('a scenario that did not exercise its claim gets a failing testcase, vacuous', async (t) => {
  const r = results();
  const on = r.scenarios[0]!;
  const exercised = findAll(findAll(parseXml(renderJunit(r)), 'testsuite')[0]!, 'testcase').at(-1)!;
  t.equal(findAll(exercised, 'failure').length, 0, 'doublewrite exercised in 1 of 2 judged cycles meets the default 50%');
  t.match(findAll(exercised, 'system-out')[0]!.text, /^doublewrite exercised in 1 of 2 cycles; needs 50%/);
  Object.assign(on, { vacuous: true, exercise: { ...on.exercise!, cycles: 0 }, failures: [...on.failures, 'vacuous: doublewrite exercised in 0 of 2 cycles (0%, below the scenario\'s 50%); why'] });
  const failed = findAll(findAll(findAll(parseXml(renderJunit(r)), 'testsuite')[0]!, 'testcase').at(-1)!, 'failure')[0]!;
  t.equal(failed.attributes.type, 'vacuous');
  t.match(failed.attributes.message, /^vacuous: doublewrite exercised in 0 of 2 cycles/);
});

t.test('a contradicted expectation is a failure, a rig error an error, log text escaped', async (t) => {
  const root = parseXml(renderJunit(results()));
  const cases = findAll(root, 'testcase');
  const failure = findAll(cases[1]!, 'failure')[0]!;
  t.equal(failure.attributes.type, 'lost-commit');
  t.match(failure.attributes.message, /^lost-commit contradicts recovers: page 3 <torn> & "odd" 'quoted' \]\]> /);
  t.match(failure.text, /<torn>/, 'markup in a reason comes back as text');
  t.notMatch(failure.text, /[\u0001\u0007\u001b]/, 'control characters are gone');
  t.match(failure.text, /\uFFFD tail/, 'a lone surrogate is replaced');
  const error = findAll(cases[2]!, 'error')[0]!;
  t.equal(error.attributes.type, 'rig-error');
  t.same(findAll(cases[0]!, 'failure'), [], 'a restored cycle under recovers passes');
  t.match(findAll(cases[0]!, 'system-out')[0]!.text, /verdict: restored\ntorn pages before recovery: 7/);
});

t.test('a blind negative control gets its own failing testcase', async (t) => {
  const root = parseXml(renderJunit(results()));
  const control = findAll(root, 'testsuite')[1]!;
  const cases = findAll(control, 'testcase');
  t.equal(cases.length, 3);
  t.same(cases.slice(0, 2).map((c) => findAll(c, 'failure').length), [0, 0], 'an untorn cycle alone contradicts nothing');
  const blind = findAll(cases[2]!, 'failure')[0]!;
  t.equal(cases[2]!.attributes.name, 'negative control reproduced a torn page');
  t.equal(blind.attributes.type, 'blind');
  t.match(blind.attributes.message, /^blind: no cycle of dw-off-4k tore a page in 2 cycles/);
});

t.test('escapeXml escapes markup and drops what XML cannot hold', async (t) => {
  t.equal(escapeXml(`<a href="x">&'</a>`), '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  t.equal(escapeXml('tab\tnl\ncr\r'), 'tab\tnl\ncr\r');
  t.equal(escapeXml('\u0000\u000b\uFFFE'), '\uFFFD\uFFFD\uFFFD');
  t.equal(escapeXml('emoji \u{1F600} kept'), 'emoji \u{1F600} kept');
});

t.test('the XML check used here rejects what is not well-formed', async (t) => {
  for (const bad of ['<a>&</a>', '<a>x < y</a>', '<a b="<"/>', '<a><b></a></b>', '<a>', '<a/><b/>', '<a>&nbsp;</a>', '<a>\u0001</a>']) {
    t.throws(() => parseXml(bad), bad);
  }
  t.equal(parseXml('<?xml version="1.0"?>\n<a x="&lt;">1 &amp; 2</a>').text, '1 & 2');
});

t.test("a cycle a scenario's known finding explains passes and says which finding", async (t) => {
  const s: ScenarioSettings = { ...settings('dw-on', 'recovers'), findings: ['page0-not-restored'] };
  const hit = cycleRecord({ id: 'dw-on-1', scenario: 'dw-on', cycle: 1, seed: 1 }, s, 'reported-corruption', 1);
  hit.tornPagesBefore[0] = { ...hit.tornPagesBefore[0]!, page: 0, page0: { path: 'header', headerSpaceId: 5, firstPages: [], serverLog: [], finding: 'not restored' } };
  const other = cycleRecord({ id: 'dw-on-2', scenario: 'dw-on', cycle: 2, seed: 2 }, s, 'reported-corruption', 1);
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 2 }, [hit, other]);
  const r = { ...results(), scenarios: [summary], cycles: [hit, other], outcome: campaignOutcome([summary], true) };
  const cases = findAll(parseXml(renderJunit(r)), 'testcase');
  t.same(findAll(cases[0]!, 'failure'), [], 'the hit passes');
  t.match(findAll(cases[0]!, 'system-out')[0]!.text, /known finding page0-not-restored \(docs\/findings\/page0-not-restored\.md\)/);
  t.equal(findAll(cases[1]!, 'failure').length, 1, 'a break the finding does not explain still fails');
});
