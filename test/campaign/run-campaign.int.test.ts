/**
 * `rig campaign` end to end on the real stack (FUSE disk, loop device, ext4, mariadbd): a
 * two-scenario campaign of one cycle each, interrupted by SIGINT mid-cycle and resumed; the same
 * campaign in two shards merged; their results held against the published schemas
 * (docs/schema/); bad input refused before anything is created. The prepared images are built
 * once, in a cache folder shared by the tests of this file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadResults } from '../../rig/results/load-results.js';
import { sweepLeftovers } from '../../rig/cleanup/sweep-leftovers.js';
import { contextFromEnv } from '../../rig/context.js';
import { outcomeExitCode } from '../../rig/results/summarize.js';
import type { CampaignResults, CycleRecord } from '../../rig/results/types.js';
import { isFailing } from '../../rig/campaign/evidence.js';
import { ensureBuilt, leftoversUnder, rig, waitForFile } from '../fixtures/rig-cli.js';
import { writeSmallCampaign } from '../fixtures/small-campaign.js';
import { checkResultsFolder, resultsValidators } from '../fixtures/results-schema.js';
import { findAll, parseXml } from '../fixtures/xml-check.js';

const base = mkdtempSync(join(tmpdir(), 'rig-campaign-test-'));
const env = { RIG_CACHE: join(base, 'cache') };
const file = writeSmallCampaign(base);
const readResults = async (dir: string): Promise<CampaignResults> => (await loadResults(dir)).results;
const readCycle = (dir: string) => JSON.parse(readFileSync(join(dir, 'cycle.json'), 'utf8')) as CycleRecord;
const ids = (r: CampaignResults) => r.cycles.map((c) => `${c.id} seed ${c.seed}`);
const verdictClass = (c: CycleRecord) => (c.verdict === 'rig-error' ? 'rig-error' : 'judged');
/** What failed in each rig-error cycle, for the message of a check that none did. */
const rigErrors = (...runs: CampaignResults[]) =>
  runs.flatMap((r) => r.cycles).filter((c) => c.verdict === 'rig-error').map((c) => `; ${c.id}: ${c.error ?? c.reason}`).join('');

t.teardown(async () => {
  await sweepLeftovers({ context: contextFromEnv() }); // takes down what a failed run of this file left
  if ((await leftoversUnder(base)).length === 0) rmSync(base, { recursive: true, force: true });
});

t.before(ensureBuilt);

t.test('bad input exits 2 before anything is created', async (t) => {
  const bad = join(base, 'bad.yml');
  writeFileSync(bad, readFileSync(file, 'utf8').replace('seed: 7', 'seed: 7\ncycels: 3'));
  const cases: [string, string[], RegExp][] = [
    ['unknown key in the file', [bad], /cycels/],
    ['missing file', [join(base, 'nope.yml')], /cannot read the campaign file/],
    ['shard out of range', [file, '--shard', '3/2'], /shard 3 of 2 does not exist/],
    ['bad evidence cap', [file, '--evidence-max', 'lots'], /--evidence-max/],
    ['no lanes', [file, '--lanes', '0'], /^rig: --lanes: '0' is not a number of states to judge at once; use a whole number from 1 to 32$/],
    ['a scenario the file lacks', [file, '--scenario', 'nope'], /--scenario: 'nope' is not a scenario of .*small\.yml; its scenarios: /],
    ['a history store that is not one', [file, '--history', file], /small\.yml: not a history store .*; name another store file/],
  ];
  for (const [name, args, message] of cases) {
    const out = join(base, `bad-${name.replace(/\W+/g, '-')}`);
    const run = await rig(['campaign', ...args, '--out', out], env);
    t.equal(run.exitCode, 2, `${name}: exit 2`);
    t.match(run.stderr, message, `${name}: says what was wrong`);
    t.notOk(existsSync(out), `${name}: no results folder`);
  }
});

const full = join(base, 'full');

t.test('SIGINT mid-cycle leaves nothing behind and --resume finishes the campaign', async (t) => {
  const child = rig(['campaign', file, '--out', full], env);
  await waitForFile(join(full, 'cycles', 'dw-on-4k-1', 'cut', 'disk.json'), 300_000);
  child.kill('SIGINT');
  const stopped = await child;
  t.equal(stopped.signal, 'SIGINT', 'the run ends by the re-raised signal');
  t.match(stopped.stderr, /SIGINT received/);
  t.same(await leftoversUnder(base), [], 'no mount, loop device, helper or server left');
  const partial = await readResults(full);
  t.equal(partial.outcome, 'running');
  t.same(partial.cycles, [], 'the interrupted cycle is not recorded');
  // nor does its folder hold a record calling the interruption a rig error, or its unfinished cut
  t.notOk(existsSync(join(full, 'cycles', 'dw-on-4k-1', 'cycle.json')), 'no cycle.json in its folder');
  t.notOk(existsSync(join(full, 'cycles', 'dw-on-4k-1', 'cut')), 'no cut/ evidence');

  const store = join(base, 'history.sqlite');
  const resumed = await rig(['campaign', file, '--out', full, '--resume', '--history', store], env);
  t.match(resumed.stdout, /^\[1\/2\] dw-on-4k-1: [a-z-]+ \(.*\) [\d.]+ s$/m);
  t.match(resumed.stdout, /^\[2\/2\] dw-off-4k-1: /m);
  const results = await readResults(full);
  t.equal(resumed.exitCode, outcomeExitCode(results.outcome), `exit code follows the outcome (${resumed.stderr.trim()})`);
  t.not(results.finishedAt, null);
  t.same(ids(results), [`dw-on-4k-1 seed ${results.cycles[0]!.seed}`, `dw-off-4k-1 seed ${results.cycles[1]!.seed}`]);
  t.same(results.cycles.map(verdictClass), ['judged', 'judged'], `both cycles judged${rigErrors(results)}`);
  t.equal(results.environment.server, 'mariadbd');
  t.equal(results.shard, null);
  t.ok(results.cyclesPerHour! > 0);
  const junit = parseXml(readFileSync(join(full, 'junit.xml'), 'utf8'));
  const cases = findAll(junit, 'testcase').map((c) => c.attributes.name);
  t.same(
    cases,
    ['dw-on-4k-1', 'exercised its claim', 'dw-off-4k-1', 'negative control reproduced a torn page'],
    'a testcase per cycle, the doublewrite scenario\'s claim and the negative control\'s own',
  );
  t.match(resumed.stdout, `report: ${join(full, 'index.html')}`);
  t.ok(existsSync(join(full, 'index.html')));
  // --history: the finished run filed, and its report holds it against the runs before it (none)
  t.match(resumed.stdout, new RegExp(`^filed run 1: ${results.campaign}, started ${results.startedAt}, 2 cycles, in ${store}$`, 'm'));
  t.match(resumed.stdout, /^since earlier runs: one run in view: nothing to hold it against$/m);
  t.match(readFileSync(join(full, 'index.html'), 'utf8'), /<section id="history"><h2>Since earlier runs<\/h2>/);
  const history = await rig(['history', '--store', store], env);
  t.equal(history.exitCode, 0, history.stderr);
  t.match(history.stdout, /^history of \S+: 1 of 1 filed runs in view/);
  for (const c of results.cycles) {
    const dir = join(full, 'cycles', c.id);
    t.same(readCycle(dir), c, `${c.id}: cycle.json agrees with results.json`);
    t.equal(c.repro, `rig repro ${join(full, 'cycles', c.id)}`);
    const keep = isFailing(c) || c.tornPagesBefore.length > 0;
    t.equal(c.evidenceDir, keep ? `cycles/${c.id}` : null, `${c.id}: evidence kept only when it tore or failed`);
    t.equal(existsSync(join(dir, 'cut', 'image.img')), keep);
    t.ok(existsSync(join(dir, 'cut', 'plan.json')) && existsSync(join(dir, 'error.log')), `${c.id}: small files kept`);
  }
});

t.test('shards 1/2 and 2/2 merged equal the unsharded run', async (t) => {
  const unsharded = await readResults(full);
  const shards = [join(base, 'shard1'), join(base, 'shard2')];
  const one = await rig(['campaign', file, '--out', shards[0]!, '--shard', '1/2'], env);
  t.match(one.stdout, /^\[1\/1\] dw-on-4k-1: /m, `shard 1 runs the first cycle (${one.stderr.trim()})`);
  // shard 2 holds the negative control's cycle; the smallest cap, 1 MiB, leaves no room for passing
  // evidence (the image at the cut alone is tens of MiB)
  const two = await rig(['campaign', file, '--out', shards[1]!, '--shard', '2/2', '--evidence-max', '1M'], env);
  t.match(two.stdout, /^\[1\/1\] dw-off-4k-1: /m);
  const control = (await readResults(shards[1]!)).cycles[0]!;
  if (isFailing(control)) {
    t.not(control.evidenceDir, null, 'failing evidence is never dropped');
    t.match(two.stderr, /failing cycles alone keep .* over the cap/);
  } else {
    t.equal(control.evidenceDir, null, 'passing evidence over the cap is dropped');
    t.notOk(existsSync(join(shards[1]!, 'cycles', control.id, 'cut', 'image.img')));
    t.equal(readCycle(join(shards[1]!, 'cycles', control.id)).evidenceDir, null, 'cycle.json says so too');
  }
  const out = join(base, 'merged');
  const merge = await rig(['merge', out, ...shards], env);
  const merged = await readResults(out);
  t.equal(merge.exitCode, outcomeExitCode(merged.outcome));
  t.same(ids(merged), ids(unsharded), 'the same cycles and seeds, in the same order');
  t.same(merged.cycles.map(verdictClass), unsharded.cycles.map(verdictClass), `the same verdict classes${rigErrors(merged, unsharded)}`);
  t.same(
    merged.scenarios.map((s) => [s.name, s.cyclesPlanned, s.cyclesRun, s.expectation]),
    unsharded.scenarios.map((s) => [s.name, s.cyclesPlanned, s.cyclesRun, s.expectation]),
  );
  t.ok(existsSync(join(out, 'index.html')), 'merge renders the report');
  t.same(await leftoversUnder(base), []);
});

t.test('the real runs\' results pass the published schemas (docs/schema/)', async (t) => {
  const validators = resultsValidators();
  // the folders the tests above wrote: a resumed run, its two shards, and their merge
  for (const dir of [full, join(base, 'shard1'), join(base, 'shard2'), join(base, 'merged')]) {
    const { records, problems } = await checkResultsFolder(dir, validators);
    t.same(problems, [], `${dir}: results.json and every line of cycles.jsonl pass`);
    t.ok(records > 0, `${dir}: ${records} cycle records checked`);
  }
});

t.test('a negative control that never tears fails the campaign as blind, said plainly', async (t) => {
  // 16 KiB atomic writes on a filesystem that keeps pages 16 KiB-aligned cannot tear a page, so a
  // scenario there that claims to be a negative control sees nothing
  const blindFile = join(base, 'blind.yml');
  writeFileSync(
    blindFile,
    readFileSync(file, 'utf8')
      .replace(/^name: small$/m, 'name: blind')
      .replace(/scenarios:[\s\S]*$/, 'scenarios:\n  - name: aligned\n    server: {doublewrite: off}\n    disk: {atomic: 16k, fs: ext4-bigalloc16k}\n    expect: torn-reproduced\n'),
  );
  const out = join(base, 'blind');
  const run = await rig(['campaign', blindFile, '--out', out], env);
  const results = await readResults(out);
  t.equal(results.cycles[0]?.tornPagesBefore.length, 0, `no page tore (${run.stderr.trim()})`);
  t.equal(results.scenarios[0]?.blind, true);
  t.equal(results.outcome, 'fail');
  t.equal(run.exitCode, 1);
  t.match(run.stderr, /BLIND: the negative control 'aligned' never reproduced a torn page in 1 cycle,/);
  t.match(run.stdout, /aligned: torn-reproduced BLIND/);
});

t.test('a doublewrite scenario whose cut tears nothing is vacuous: the campaign fails, said plainly', async (t) => {
  // every write pending at the cut lands (fates: land only), so no page in use can tear with only a
  // doublewrite copy to restore it: the PASS would be empty. (A cut soon after arming, as this one
  // is, still found 29 pages pending once: which writes are pending is the cut's luck, not the plan's.)
  const vacuousFile = join(base, 'vacuous.yml');
  writeFileSync(
    vacuousFile,
    readFileSync(file, 'utf8')
      .replace(/^name: small$/m, 'name: vacuous')
      .replace(/scenarios:[\s\S]*$/, "scenarios:\n  - name: early-cut\n    server: {doublewrite: on}\n    disk: {atomic: 4k, trigger: 'after-writes 1', fates: {land: 1}}\n    expect: recovers\n"),
  );
  const out = join(base, 'vacuous');
  const run = await rig(['campaign', vacuousFile, '--out', out], env);
  const results = await readResults(out);
  const cycle = results.cycles[0]!;
  t.not(cycle.verdict, 'rig-error', `the cycle was judged (${cycle.reason})`);
  t.equal(cycle.exercised?.tornDoublewrite, 0, 'no in-use page tore with only a doublewrite copy behind it');
  t.same(results.scenarios[0]?.exercise, { claim: 'doublewrite', cycles: 0, of: 1, minShare: 0.5 });
  t.equal(results.scenarios[0]?.vacuous, true);
  t.equal(results.outcome, 'fail');
  t.equal(run.exitCode, 1);
  t.match(run.stderr, /VACUOUS: 'early-cut' passed without exercising its claim; the campaign fails\. doublewrite exercised in 0 of 1 cycle/);
  t.match(run.stdout, /early-cut: recovers VACUOUS \(1\/1 cycles: .*doublewrite exercised in 0 of 1 cycle\)/);
  const junit = parseXml(readFileSync(join(out, 'junit.xml'), 'utf8'));
  t.equal(findAll(junit, 'failure').find((f) => f.attributes.type === 'vacuous')?.attributes.message?.startsWith('vacuous: doublewrite exercised in 0 of 1 cycle'), true);
});
