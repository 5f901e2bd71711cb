import t, { type Test } from 'tap';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { runMerge, summaryLines } from '../../rig/cli/commands/merge.js';
import { renderJunit } from '../../rig/results/junit.js';
import { mergeResults } from '../../rig/results/merge.js';
import { loadResults, openResults, type OpenedResults } from '../../rig/results/load-results.js';
import { CYCLES_FILE, summaryOf, writeCycleRecords } from '../../rig/results/results-file.js';
import type { CampaignResults, CycleRecord, ExploreState } from '../../rig/results/types.js';
import { writeResultsFolder } from '../../rig/results/write-results.js';
import { fakeRun } from '../fixtures/campaign-results.js';
import { parseXml } from '../fixtures/xml-check.js';

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rig-merge-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `results` as a campaign would into DIR/NAME and opens it, as rig merge does. */
async function saved(dir: string, name: string, results: CampaignResults): Promise<OpenedResults> {
  await writeResultsFolder(join(dir, name), results);
  return openResults(join(dir, name));
}

/** What must agree between a merged run and an unsharded one. */
const verdictsAndSeeds = (r: CampaignResults) => ({
  scenarios: r.scenarios,
  cycles: r.cycles.map((c) => [c.id, c.seed, c.verdict, c.tornPagesBefore.length]),
  outcome: r.outcome,
});

t.test('shards 1/3 + 2/3 + 3/3 merged equal the unsharded run', async (t) => {
  const dir = await tempDir(t);
  const campaign = await loadCampaign('campaigns/torn-pages.yml');
  const unsharded = fakeRun(campaign, null);
  const shardDirs = [];
  for (const index of [3, 1, 2]) {
    const shardDir = join(dir, `shard-${index}`);
    await writeResultsFolder(shardDir, fakeRun(campaign, { index, count: 3 }, true));
    shardDirs.push(shardDir);
  }
  const out = join(dir, 'merged');
  const lines: string[] = [];
  const code = await runMerge(out, shardDirs, { print: (l) => lines.push(l) });
  const merged = (await loadResults(out)).results;
  t.same(verdictsAndSeeds(merged), verdictsAndSeeds(unsharded));
  t.equal(merged.shard, null);
  t.equal(merged.finishedAt, '2024-05-01T00:13:00.000Z', 'finished when the last shard did');
  t.equal(merged.cycles[0]!.evidenceDir, join('..', 'shard-1', 'cycles', merged.cycles[0]!.id), 'evidence found from the merged folder');
  t.equal(code, { pass: 0, fail: 1, 'rig-error': 3, running: 3 }[unsharded.outcome]);
  t.equal(lines.at(-2), `${unsharded.campaign}: ${unsharded.outcome} (${unsharded.cycles.length} cycles merged)`, 'the count from the summary');
  t.match(lines.at(-1), /^wrote .*results\.json, .*junit\.xml$/);
  const xml = await readFile(join(out, 'junit.xml'), 'utf8');
  const junit = parseXml(xml);
  const controls = merged.scenarios.filter((s) => s.expectation === 'torn-reproduced').length;
  const claims = merged.scenarios.filter((s) => s.exercise?.minShare != null && s.exercise.of > 0).length;
  t.equal(junit.attributes.tests, String(merged.cycles.length + controls + claims), 'a case per cycle plus one per negative control and per claim to exercise');
  t.equal(xml, renderJunit(unsharded), "junit.xml is the unsharded run's, byte for byte");
});

t.test('a shard of version 1, its records inside results.json, merges with shards of version 2', async (t) => {
  const dir = await tempDir(t);
  const campaign = await loadCampaign('campaigns/quick.yml');
  const shardDirs = [1, 2, 3].map((i) => join(dir, `s${i}`));
  for (const [i, shardDir] of shardDirs.entries()) await writeResultsFolder(shardDir, fakeRun(campaign, { index: i + 1, count: 3 }));
  await writeFile(join(shardDirs[1]!, 'results.json'), JSON.stringify({ ...fakeRun(campaign, { index: 2, count: 3 }), version: 1 }));
  await rm(join(shardDirs[1]!, CYCLES_FILE));
  const out = join(dir, 'out');
  await runMerge(out, shardDirs, { print: () => {} });
  t.same(verdictsAndSeeds((await loadResults(out)).results), verdictsAndSeeds(fakeRun(campaign, null)));
});

t.test('the renderer hook runs on the merged folder', async (t) => {
  const dir = await tempDir(t);
  const campaign = await loadCampaign('campaigns/quick.yml');
  const shardDirs = [1, 2].map((i) => join(dir, `s${i}`));
  for (const [i, shardDir] of shardDirs.entries()) await writeResultsFolder(shardDir, fakeRun(campaign, { index: i + 1, count: 2 }));
  const rendered: string[] = [];
  const out = join(dir, 'out');
  const lines: string[] = [];
  await runMerge(out, shardDirs, { print: (l) => lines.push(l), renderReport: async (d) => (rendered.push(d), join(d, 'index.html')) });
  t.same(rendered, [out]);
  t.match(lines.at(-1), /index\.html$/);
});

t.test('refuses merges that would not equal one run', async (t) => {
  const dir = await tempDir(t);
  const quick = await loadCampaign('campaigns/quick.yml');
  const other = await loadCampaign('campaigns/quick.yml', { seed: 99 });
  const save = (name: string, results: CampaignResults) => saved(dir, name, results);
  const s1 = await save('s1', fakeRun(quick, { index: 1, count: 3 }));
  const s2 = await save('s2', fakeRun(quick, { index: 2, count: 3 }));
  const s3 = await save('s3', fakeRun(quick, { index: 3, count: 3 }));
  const opts = { outDir: join(dir, 'out'), commandLine: 'rig merge' };
  const cases: [string, OpenedResults[], RegExp][] = [
    ['a shard twice', [s1, s2, s3, s2], /s2\/results\.json and .*s2\/results\.json are both shard 2\/3; give each shard once/],
    ['a missing shard', [s1, s3], /shard 2\/3 is missing; give its folder too/],
    ['a different seed', [s1, await save('x2', fakeRun(other, { index: 2, count: 3 })), s3], /seed 99 differs from .*; merge only the shards of one campaign run/],
    ['a different campaign', [s1, await save('y', { ...fakeRun(quick, { index: 2, count: 3 }), campaign: 'nightly' }), s3], /campaign 'nightly' differs/],
    ['different splits', [s1, await save('h', fakeRun(quick, { index: 2, count: 2 }))], /cut 3 and 2 ways/],
    ['an unsharded run with shards', [await save('u', fakeRun(quick, null)), s1], /is an unsharded run, which overlaps any other results/],
    ['nothing', [], /nothing to merge/],
  ];
  for (const [what, inputs, message] of cases) {
    await t.rejects(mergeResults(inputs, opts), { code: 'bad-input', message }, what);
  }
  t.same(await readdir(dir).then((names) => names.includes('out')), false, 'a refused merge writes nothing');
  const rank = new Map(quick.scenarios.map((s, i) => [s.settings.name, i]));
  const withS1 = fakeRun(quick, { index: 2, count: 3 });
  withS1.cycles = [...withS1.cycles, fakeRun(quick, { index: 1, count: 3 }).cycles[0]!]
    .sort((a, b) => rank.get(a.scenario)! - rank.get(b.scenario)! || a.cycle - b.cycle);
  const overlapping = await save('s2-overlapping', withS1);
  await t.rejects(mergeResults([s1, overlapping, s3], opts), { code: 'bad-input', message: /appears in more than one shard/ });
  await t.rejects(readFile(join(dir, 'out', CYCLES_FILE)), { code: 'ENOENT' }, 'a merge refused mid-stream leaves no cycles.jsonl');
  await t.rejects(loadResults(join(dir, 'nowhere')), { code: 'bad-input', message: /cannot read campaign results \(ENOENT\)/ });
  await writeResultsFolder(join(dir, 'bad'), fakeRun(quick, null));
  const written = JSON.parse(await readFile(join(dir, 'bad', 'results.json'), 'utf8')) as object;
  await writeFile(join(dir, 'bad', 'results.json'), JSON.stringify({ ...written, version: 3 }));
  await t.rejects(loadResults(join(dir, 'bad')), { code: 'bad-input', message: /not a campaign's results \(version: / });
});

t.test("a shard whose records are out of the campaign's order is refused, naming its file and the fix", async (t) => {
  const dir = await tempDir(t);
  const quick = await loadCampaign('campaigns/quick.yml');
  const s1 = await saved(dir, 's1', fakeRun(quick, { index: 1, count: 2 }));
  const s2 = await saved(dir, 's2', fakeRun(quick, { index: 2, count: 2 }));
  const records: CycleRecord[] = [];
  for await (const record of s2.records()) records.push(record);
  await writeCycleRecords(s2.dir, [...records].reverse());
  const out = join(dir, 'out');
  const error = await mergeResults([s1, s2], { outDir: out, commandLine: 'rig merge' }).catch((e: unknown) => e);
  t.match(error, { code: 'bad-input', message: /s2\/cycles\.jsonl: cycle \S+ comes after \S+, out of the campaign's order .*--resume/ });
  t.notMatch((error as Error).message, /\n/, 'one line');
  await t.rejects(readFile(join(out, CYCLES_FILE)), { code: 'ENOENT' }, 'nothing written');
  await t.rejects(readFile(join(out, 'results.json')), { code: 'ENOENT' });
});

t.test("an explore scenario's states merge by the cycle that recorded them, then by state", async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'explore.yml');
  await writeFile(file, 'name: ex\nseed: 3\nscenarios:\n  - {name: ea, mode: explore, cycles: 3, states: 2}\n  - {name: eb, mode: explore, cycles: 2, states: 2}\n');
  const campaign = await loadCampaign(file);
  /** Each planned cycle's record becomes its two states, numbered 1 and 2 in `cycle`, as run-explore numbers them. */
  const explored = (results: CampaignResults): CampaignResults => ({
    ...results,
    cycles: results.cycles.flatMap((c) => [1, 2].map((state) => ({
      ...c, id: `${c.id}-s${state}`, cycle: state, explore: { run: c.id, runSeed: c.seed, of: 2 } as ExploreState,
    }))),
  });
  const shards = [];
  for (const index of [1, 2]) shards.push(await saved(dir, `s${index}`, explored(fakeRun(campaign, { index, count: 2 }))));
  const out = join(dir, 'out');
  await mergeResults(shards, { outDir: out, commandLine: 'rig merge' });
  const merged = (await loadResults(out)).results;
  t.same(merged.cycles.map((c) => c.id), ['ea-1-s1', 'ea-1-s2', 'ea-2-s1', 'ea-2-s2', 'ea-3-s1', 'ea-3-s2', 'eb-1-s1', 'eb-1-s2', 'eb-2-s1', 'eb-2-s2']);
  t.same(merged.cycles.map((c) => c.id), explored(fakeRun(campaign, null)).cycles.map((c) => c.id), 'the unsharded order');
});

t.test('a shard that never finished makes the merged run a rig error, not a pass', async (t) => {
  const dir = await tempDir(t);
  const quick = await loadCampaign('campaigns/quick.yml');
  const first = fakeRun(quick, { index: 1, count: 2 });
  const cut = await saved(dir, 's1', { ...first, finishedAt: null, cycles: first.cycles.slice(0, 1) });
  const merged = await mergeResults([cut, await saved(dir, 's2', fakeRun(quick, { index: 2, count: 2 }))], { outDir: join(dir, 'out'), commandLine: 'rig merge' });
  t.equal(merged.finishedAt, null);
  t.ok(['rig-error', 'fail'].includes(merged.outcome));
  t.ok(merged.scenarios.some((s) => s.cyclesRun < s.cyclesPlanned));
});

t.test('perf pairs merge like cycles: each once, in the unsharded order', async (t) => {
  const dir = await tempDir(t);
  const campaign = await loadCampaign('campaigns/quick.yml');
  const summary = { reads: 0, writes: 600, transactions: 150, seconds: 60, readQps: 0, writeQps: 10, tps: 2.5, p99Ms: 9, errors: 0 };
  const pair = (scenario: string, cycle: number, error: string | null = null) => ({
    id: `${scenario}-${cycle}`, scenario, cycle, seed: cycle, on: error ? null : summary, off: error ? null : summary, error,
    versions: { server: 'mariadbd 10.11', sysbench: 'sysbench 1.0.20' },
  });
  let n = 0;
  const shard = (index: number, perf?: ReturnType<typeof pair>[]) =>
    saved(dir, `s${index}-${(n += 1)}`, { ...fakeRun(campaign, { index, count: 2 }), ...(perf ? { perf } : {}) });
  const opts = () => ({ outDir: join(dir, `m${(n += 1)}`), commandLine: 'rig merge' });
  const name = campaign.scenarios[0]!.settings.name;
  const merged = await mergeResults([await shard(2, [pair(name, 2)]), await shard(1, [pair(name, 3), pair(name, 1)])], opts());
  t.same(merged.perf!.map((p) => p.id), [1, 2, 3].map((c) => `${name}-${c}`));
  await t.rejects(mergeResults([await shard(1, [pair(name, 1)]), await shard(2, [pair(name, 1)])], opts()), /perf pair .* appears in more than one shard/);
  t.equal((await mergeResults([await shard(1), await shard(2)], opts())).perf, undefined, 'no perf in, none out');
});

t.test('a merged perf run with a shard short of its pairs is a rig error, as missing cycles are', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'perf-only.yml');
  await writeFile(file, 'name: perf-only\nseed: 3\nscenarios:\n  - {name: pa, mode: perf, cycles: 3, seconds: 5}\n  - {name: pb, mode: perf, cycles: 2, seconds: 5}\n');
  const campaign = await loadCampaign(file);
  await mkdir(join(dir, 'shards'));
  const shard = (index: number, name = `s${index}`) => saved(join(dir, 'shards'), name, fakeRun(campaign, { index, count: 2 }));
  const whole = await mergeResults([await shard(1), await shard(2)], { outDir: join(dir, 'whole'), commandLine: 'rig merge' });
  t.equal(whole.outcome, 'pass', 'every pair there: pass');
  t.same(summaryLines(whole).slice(0, 2), ['pa: perf (3/3 pairs; doublewrite off / on write QPS 1.40 (1.40-1.40))', 'pb: perf (2/2 pairs; doublewrite off / on write QPS 1.40 (1.40-1.40))'], 'the summary gives each perf scenario its pairs and ratio');
  t.same(whole.scenarios.map((s) => [s.name, s.pairsPlanned]), [['pa', 3], ['pb', 2]], 'the planned pairs summed over the shards');
  const first = fakeRun(campaign, { index: 1, count: 2 });
  const short = await saved(join(dir, 'shards'), 'short', { ...first, perf: first.perf!.slice(1) });
  const merged = await mergeResults([short, await shard(2, 's2-again')], { outDir: join(dir, 'merged'), commandLine: 'rig merge' });
  t.equal(merged.outcome, 'rig-error');
  t.equal(summaryLines(merged)[0], 'pa: perf (2/3 pairs; doublewrite off / on write QPS 1.40 (1.40-1.40))');
  t.equal(merged.perf!.length, 4);
});

t.test("a shard's summary names the scenarios none of its cycles belong to, instead of counting them held", async (t) => {
  const campaign = await loadCampaign('campaigns/quick.yml');
  const shard = fakeRun(campaign, { index: 1, count: 9 });
  const lines = summaryLines(summaryOf(shard)).slice(0, -1);
  const empty = shard.scenarios.filter((s) => s.cyclesPlanned === 0);
  t.ok(empty.length > 0 && empty.length < shard.scenarios.length, `${empty.length} of ${shard.scenarios.length} scenarios have no cycle in shard 1/9`);
  for (const s of shard.scenarios) {
    const line = lines.find((l) => l.startsWith(`${s.name}: `));
    if (s.cyclesPlanned === 0) t.equal(line, `${s.name}: ${s.expectation}: no cycle in shard 1/9`);
    else t.match(line, new RegExp(`^${s.name}: ${s.expectation} \\S+ \\(\\d+/${s.cyclesPlanned} cycles`));
  }
});
