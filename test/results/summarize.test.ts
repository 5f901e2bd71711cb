import t from 'tap';
import { contradicts, expectationHolds } from '../../rig/results/expectation.js';
import {
  campaignOutcome, contradictedCycles, cyclesPerHour, outcomeExitCode, ScenarioTallies, ScenarioTally, summarizeScenario, summarizeScenarios,
} from '../../rig/results/summarize.js';
import type { Expectation, ScenarioSettings, Verdict } from '../../rig/results/types.js';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import { cycleRecord } from '../fixtures/cycle-record.js';

// [expectation, verdict, torn pages, holds]: every verdict under every expectation.
const rules: [Expectation, Verdict, number, boolean][] = [
  ['recovers', 'no-torn', 0, true],
  ['recovers', 'restored', 5, true],
  ['recovers', 'detected', 5, false],
  ['recovers', 'silent-corruption', 5, false],
  ['recovers', 'silent-corruption', 0, false],
  ['recovers', 'lost-commit', 0, false],
  ['recovers', 'lost-commit', 3, false],
  ['recovers', 'rig-error', 0, false],
  ['recovers', 'refused', 0, false],
  ['recovers', 'crashed', 0, false],
  ['recovers', 'crashed', 4, false],
  ['recovers', 'hung', 0, false],
  ['recovers', 'shutdown-crash', 0, false],
  ['recovers', 'reported-corruption', 2, false],
  ['never-torn', 'no-torn', 0, true],
  ['never-torn', 'restored', 2, false],
  ['never-torn', 'detected', 1, false],
  ['never-torn', 'silent-corruption', 0, false],
  ['never-torn', 'lost-commit', 0, false],
  ['never-torn', 'rig-error', 0, false],
  ['never-torn', 'refused', 0, false],
  ['never-torn', 'crashed', 0, false],
  ['never-torn', 'hung', 0, false],
  ['never-torn', 'shutdown-crash', 0, false],
  ['never-torn', 'reported-corruption', 0, false],
  ['torn-reproduced', 'detected', 9, true],
  ['torn-reproduced', 'restored', 4, true],
  ['torn-reproduced', 'silent-corruption', 3, true],
  ['torn-reproduced', 'lost-commit', 2, true],
  ['torn-reproduced', 'no-torn', 0, true],
  ['torn-reproduced', 'silent-corruption', 0, false],
  ['torn-reproduced', 'lost-commit', 0, false],
  ['torn-reproduced', 'rig-error', 0, false],
  ['torn-reproduced', 'crashed', 3, true],
  ['torn-reproduced', 'hung', 1, true],
  ['torn-reproduced', 'reported-corruption', 5, true],
  ['torn-reproduced', 'crashed', 0, false],
  ['torn-reproduced', 'hung', 0, false],
  ['torn-reproduced', 'shutdown-crash', 0, false],
  ['torn-reproduced', 'reported-corruption', 0, false],
  ['torn-reproduced', 'refused', 0, true],
  ['torn-reproduced', 'detected', 0, true],
  ['detects', 'detected', 6, true],
  ['detects', 'restored', 3, true],
  ['detects', 'no-torn', 0, true],
  ['detects', 'silent-corruption', 3, false],
  ['detects', 'reported-corruption', 3, false],
  ['detects', 'lost-commit', 2, false],
  ['detects', 'crashed', 3, false],
  ['detects', 'hung', 1, false],
  ['detects', 'refused', 0, false],
  ['detects', 'shutdown-crash', 0, false],
  ['detects', 'rig-error', 0, false],
  ['detects', 'wal-tail-refused', 0, false],
  // RocksDB tables: every acknowledged commit, or a refusal on a torn log tail; torn InnoDB pages must come back
  ['commits-kept', 'no-torn', 0, true],
  ['commits-kept', 'restored', 2, true],
  ['commits-kept', 'wal-tail-refused', 0, true],
  ['commits-kept', 'wal-tail-refused', 3, true],
  ['commits-kept', 'detected', 0, false],
  ['commits-kept', 'detected', 2, false],
  ['commits-kept', 'refused', 0, false],
  ['commits-kept', 'lost-commit', 0, false],
  ['commits-kept', 'silent-corruption', 1, false],
  ['commits-kept', 'reported-corruption', 0, false],
  ['commits-kept', 'crashed', 0, false],
  ['commits-kept', 'hung', 0, false],
  ['commits-kept', 'shutdown-crash', 0, false],
  ['commits-kept', 'rig-error', 0, false],
  ['recovers', 'wal-tail-refused', 0, false],
  ['never-torn', 'wal-tail-refused', 0, false],
  ['torn-reproduced', 'wal-tail-refused', 0, true],
];

t.test('expectationHolds follows the oracle for every verdict', async (t) => {
  for (const [expectation, verdict, torn, holds] of rules) {
    t.equal(expectationHolds(expectation, verdict, torn), holds, `${expectation} / ${verdict} / ${torn} torn`);
    t.equal(contradicts(expectation, verdict, torn), !holds && verdict !== 'rig-error', 'rig-error is never a contradiction');
  }
});

function settings(name: string, expect: Expectation): ScenarioSettings {
  return { name, runtime: 'local', server: DEFAULT_SERVER, disk: DEFAULT_DISK, load: DEFAULT_LOAD, expect };
}

function records(s: ScenarioSettings, outcomes: [Verdict, number][]) {
  return outcomes.map(([verdict, torn], i) => cycleRecord({ id: `${s.name}-${i + 1}`, scenario: s.name, cycle: i + 1, seed: 100 + i }, s, verdict, torn));
}

t.test('a scenario whose cycles all met the expectation held', async (t) => {
  const s = settings('dw-on', 'recovers');
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 3 }, records(s, [['restored', 7], ['no-torn', 0], ['restored', 36]]));
  t.same(summary.verdictCounts, { restored: 2, 'no-torn': 1 });
  t.equal(summary.tornCycles, 2);
  t.equal(summary.cyclesRun, 3);
  t.ok(summary.held);
  t.notOk(summary.blind);
  t.same(summary.failures, []);
  t.equal(campaignOutcome([summary], true), 'pass');
  t.equal(campaignOutcome([summary], false), 'running');
});

t.test('a contradicted cycle fails the scenario with one line naming it', async (t) => {
  const s = settings('dw-on', 'recovers');
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 3 }, records(s, [['restored', 7], ['lost-commit', 2], ['no-torn', 0]]));
  t.notOk(summary.held);
  t.equal(summary.failures.length, 1);
  t.match(summary.failures[0], /^dw-on-2 \(seed 101\): lost-commit contradicts recovers: /);
  t.equal(contradictedCycles(summary), 1);
  t.equal(campaignOutcome([summary], true), 'fail');
  t.equal(outcomeExitCode('fail'), 1);
});

t.test('a negative control that never tore is blind, said plainly', async (t) => {
  const s = settings('control', 'torn-reproduced');
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 3 }, records(s, [['no-torn', 0], ['no-torn', 0], ['no-torn', 0]]));
  t.ok(summary.blind);
  t.notOk(summary.held);
  t.match(summary.failures.at(-1), /^blind: no torn page in 3 cycles/);
  t.equal(contradictedCycles(summary), 0);
  t.equal(campaignOutcome([summary], true), 'fail');
  const partial = summarizeScenario({ settings: s, cyclesPlanned: 3 }, records(s, [['no-torn', 0]]));
  t.notOk(partial.blind, 'not blind before its cycles have run');
  const reproduced = summarizeScenario({ settings: s, cyclesPlanned: 3 }, records(s, [['no-torn', 0], ['detected', 40], ['silent-corruption', 3]]));
  t.ok(reproduced.held, 'one torn cycle is enough, whatever the server did');
  t.equal(reproduced.tornCycles, 2);
});

t.test('a tally fed one record at a time gives the summary of them all, asked at any point', async (t) => {
  const s = settings('control', 'torn-reproduced');
  const rs = records(s, [['no-torn', 0], ['lost-commit', 0], ['no-torn', 0]]);
  const tally = new ScenarioTally({ settings: s, cyclesPlanned: 3 });
  for (const [i, record] of rs.entries()) {
    tally.add(record);
    t.same(tally.summary(), summarizeScenario({ settings: s, cyclesPlanned: 3 }, rs.slice(0, i + 1)), `after ${i + 1} records`);
  }
  t.equal(tally.summary().failures.filter((f) => f.startsWith('blind:')).length, 1, 'asking twice adds no line');
  const other = settings('dw-on', 'recovers');
  const plans = [{ settings: s, cyclesPlanned: 3 }, { settings: other, cyclesPlanned: 2 }];
  const mixed = [rs[0]!, ...records(other, [['restored', 4], ['rig-error', 0]]), rs[1]!, rs[2]!];
  const tallies = new ScenarioTallies(plans);
  for (const record of mixed) tallies.add(record);
  t.same(tallies.summaries(), summarizeScenarios(plans, mixed), 'the campaign\'s tallies, in plan order');
  t.same(tallies.summaries().map((x) => x.name), ['control', 'dw-on']);
});

t.test('rig errors are neither a pass nor a finding', async (t) => {
  const s = settings('dw-on', 'recovers');
  const withError = records(s, [['restored', 7], ['rig-error', 0]]);
  withError[1]!.error = 'server did not become ready within 60 s\n(log follows)';
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 2 }, withError);
  t.notOk(summary.held);
  t.same(summary.failures, ['dw-on-2 (seed 101): rig-error: server did not become ready within 60 s (log follows)']);
  t.equal(contradictedCycles(summary), 0);
  t.equal(campaignOutcome([summary], true), 'rig-error');
  t.equal(outcomeExitCode('rig-error'), 3);
  const control = settings('control', 'torn-reproduced');
  const allErrors = summarizeScenario({ settings: control, cyclesPlanned: 2 }, records(control, [['rig-error', 0], ['rig-error', 0]]));
  t.notOk(allErrors.blind, 'a control that never ran is not called blind');
  const finding = summarizeScenario({ settings: s, cyclesPlanned: 1 }, records(s, [['detected', 3]]));
  t.equal(campaignOutcome([summary, finding], true), 'fail', 'a finding outranks a rig error');
});

t.test('a finished run missing cycles is a rig error', async (t) => {
  const s = settings('dw-on', 'recovers');
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 3 }, records(s, [['restored', 7]]));
  t.ok(summary.held);
  t.equal(campaignOutcome([summary], true), 'rig-error');
  t.equal(outcomeExitCode('pass'), 0);
});

t.test('cycles per hour from wall-clock time', async (t) => {
  t.equal(cyclesPerHour(10, '2024-01-01T00:00:00Z', '2024-01-01T00:30:00Z'), 20);
  t.equal(cyclesPerHour(1, '2024-01-01T00:00:00Z', null, new Date('2024-01-01T00:00:15Z')), 240);
  t.equal(cyclesPerHour(0, '2024-01-01T00:00:00Z', '2024-01-01T00:30:00Z'), null);
  t.equal(cyclesPerHour(3, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z'), null);
});

t.test('a doublewrite scenario that rarely tore a page only doublewrite restores is vacuous, said plainly', async (t) => {
  const s = settings('dw-on', 'recovers');
  const rs = records(s, [['restored', 7], ['no-torn', 0], ['no-torn', 0]]);
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 3 }, rs);
  t.same(summary.exercise, { claim: 'doublewrite', cycles: 1, of: 3, minShare: 0.5 });
  t.ok(summary.vacuous);
  t.notOk(summary.held);
  t.match(summary.failures.at(-1), /^vacuous: doublewrite exercised in 1 of 3 cycles \(33%, below the scenario's 50%\)/);
  t.equal(contradictedCycles(summary), 0, 'vacuity is not a contradicted cycle');
  t.equal(campaignOutcome([summary], true), 'fail');
  t.notOk(summarizeScenario({ settings: s, cyclesPlanned: 4 }, rs).vacuous, 'not vacuous before its cycles have run');
  const lenient = summarizeScenario({ settings: { ...s, exercise: { minShare: 0.3 } }, cyclesPlanned: 3 }, rs);
  t.notOk(lenient.vacuous, 'the scenario sets its own share');
  const redoOnly = records(s, [['restored', 4]]);
  redoOnly[0]!.tornPagesBefore = redoOnly[0]!.tornPagesBefore.map((p) => ({ ...p, doublewrite: { ...p.doublewrite, restorable: false } }));
  t.ok(summarizeScenario({ settings: s, cyclesPlanned: 1 }, redoOnly).vacuous, 'pages only redo rebuilds do not exercise doublewrite');
  const freed = records(s, [['restored', 4]]);
  freed[0]!.tornPagesBefore = freed[0]!.tornPagesBefore.map((p) => ({ ...p, freedAfter: true }));
  t.ok(summarizeScenario({ settings: s, cyclesPlanned: 1 }, freed).vacuous, 'freed pages hold no data to restore');
  const off = settings('dw-off-recovers', 'recovers');
  const noClaim = summarizeScenario({ settings: { ...off, server: { ...off.server, doublewrite: false } }, cyclesPlanned: 1 }, records(off, [['no-torn', 0]]));
  t.equal(noClaim.exercise, null, 'recovers without doublewrite claims nothing about doublewrite');
});

t.test('a never-torn scenario whose cuts had no page write in flight is vacuous; rig errors count for nothing', async (t) => {
  const s = settings('dw-off-16k', 'never-torn');
  const rs = records(s, [['no-torn', 0], ['no-torn', 0], ['rig-error', 0]]);
  for (const r of rs) r.pendingWrites = [{ seq: 1, offset: 0, length: 4096, fate: 'dropped', units: 1, unitsLanded: [] }];
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 3 }, rs);
  t.same(summary.exercise, { claim: 'page-writes-in-flight', cycles: 0, of: 2, minShare: 0.5 });
  t.ok(summary.vacuous);
  t.match(summary.failures.at(-1), /^vacuous: page writes in flight at the cut in 0 of 2 cycles/);
  t.equal(campaignOutcome([summary], true), 'fail');
  const control = settings('control', 'torn-reproduced');
  const c = summarizeScenario({ settings: control, cyclesPlanned: 2 }, records(control, [['detected', 5], ['no-torn', 0]]));
  t.same(c.exercise, { claim: 'in-use-torn', cycles: 1, of: 2, minShare: null });
  t.notOk(c.vacuous, 'a negative control is judged by blindness, not by a share');
});

t.test("a scenario's known finding: contradictions it explains are counted as hits, others still fail", async (t) => {
  const s = { ...settings('dw-on', 'recovers'), findings: ['o-direct-no-fsync' as const, 'page0-not-restored' as const] };
  const [hit, other, fine] = records(s, [['reported-corruption', 2], ['reported-corruption', 2], ['restored', 3]]);
  hit!.tornPagesBefore[0] = {
    ...hit!.tornPagesBefore[0]!, page: 0, validAfter: false,
    page0: { path: 'header', headerSpaceId: 5, firstPages: [], serverLog: [], finding: 'page 0 of ./db/sbtest1.ibd had a copy the rules accept, yet was not restored' },
  };
  const both = summarizeScenario({ settings: s, cyclesPlanned: 3 }, [hit!, other!, fine!]);
  t.match(both.findings, [{ id: 'o-direct-no-fsync', hits: 0, of: 3 }, { id: 'page0-not-restored', hits: 1, of: 3, doc: 'docs/findings/page0-not-restored.md' }]);
  t.equal(both.failures.length, 1, 'the contradiction the finding does not explain still fails');
  t.match(both.failures[0], /^dw-on-2 /);
  t.equal(campaignOutcome([both], true), 'fail');
  const onlyHits = summarizeScenario({ settings: s, cyclesPlanned: 2 }, [hit!, fine!]);
  t.same(onlyHits.failures, []);
  t.equal(onlyHits.findings![1]!.hits, 1);
  t.equal(campaignOutcome([onlyHits], true), 'pass', 'a known finding hit does not fail the campaign');
  const plain = summarizeScenario({ settings: settings('dw-on', 'recovers'), cyclesPlanned: 1 }, [hit!]);
  t.equal(plain.findings, undefined);
  t.equal(plain.failures.length, 1, 'without the finding named, the same cycle fails');
});

t.test('a detects scenario whose cycles never tore is blind, like the negative control', async (t) => {
  const s = settings('dw-detect-only', 'detects');
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 2 }, records(s, [['no-torn', 0], ['no-torn', 0]]));
  t.ok(summary.blind);
  t.match(summary.failures, [/^blind: no torn page in 2 cycles; this scenario never tore a page for the server to detect/]);
  const torn = summarizeScenario({ settings: s, cyclesPlanned: 2 }, records(s, [['detected', 12], ['no-torn', 0]]));
  t.ok(torn.held);
  t.notOk(torn.blind);
});

t.test('a commits-kept scenario whose cuts had no write into RocksDB files in flight is vacuous; a refusal on a torn log tail holds', async (t) => {
  const s = { ...settings('myrocks', 'commits-kept'), server: { ...DEFAULT_SERVER, engine: 'rocksdb' as const } };
  const rs = records(s, [['no-torn', 0], ['wal-tail-refused', 0], ['no-torn', 0]]);
  const inFlight = [3, 1, 0];
  rs.forEach((r, i) => (r.exercised = { tornDoublewrite: 0, tornRedo: 0, tornFreed: 0, pageWritesInFlight: 0, pageWritesInFlightStraddling: 0, rocksdbWritesInFlight: inFlight[i]! }));
  const summary = summarizeScenario({ settings: s, cyclesPlanned: 3 }, rs);
  t.same(summary.exercise, { claim: 'rocksdb-writes-in-flight', cycles: 2, of: 3, minShare: 0.5 });
  t.ok(summary.held, summary.failures.join('; '));
  for (const r of rs) r.exercised!.rocksdbWritesInFlight = 0;
  const idle = summarizeScenario({ settings: s, cyclesPlanned: 3 }, rs);
  t.ok(idle.vacuous);
  t.match(idle.failures.at(-1), /^vacuous: RocksDB writes in flight at the cut in 0 of 3 cycles \(0%, below the scenario's 50%\); its PASS would not show that RocksDB keeps its commits/);
  const lost = summarizeScenario({ settings: s, cyclesPlanned: 1 }, records(s, [['detected', 0]]));
  t.notOk(lost.held, 'a refusal that is not a torn tail contradicts it');
});
