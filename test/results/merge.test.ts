import t, { type Test } from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { runMerge, summaryLines } from '../../rig/cli/commands/merge.js';
import { mergeResults } from '../../rig/results/merge.js';
import { loadResults } from '../../rig/results/load-results.js';
import type { CampaignResults } from '../../rig/results/types.js';
import { writeResultsFolder } from '../../rig/results/write-results.js';
import { fakeRun } from '../fixtures/campaign-results.js';
import { parseXml } from '../fixtures/xml-check.js';

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rig-merge-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
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
  t.match(lines.at(-1), /^wrote .*results\.json, .*junit\.xml$/);
  const junit = parseXml(await readFile(join(out, 'junit.xml'), 'utf8'));
  const controls = merged.scenarios.filter((s) => s.expectation === 'torn-reproduced').length;
  const claims = merged.scenarios.filter((s) => s.exercise?.minShare != null && s.exercise.of > 0).length;
  t.equal(junit.attributes.tests, String(merged.cycles.length + controls + claims), 'a case per cycle plus one per negative control and per claim to exercise');
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
  const save = async (name: string, results: CampaignResults) => {
    await writeResultsFolder(join(dir, name), results);
    return loadResults(join(dir, name));
  };
  const s1 = await save('s1', fakeRun(quick, { index: 1, count: 3 }));
  const s2 = await save('s2', fakeRun(quick, { index: 2, count: 3 }));
  const s3 = await save('s3', fakeRun(quick, { index: 3, count: 3 }));
  const opts = { outDir: join(dir, 'out'), commandLine: 'rig merge' };
  const cases: [string, Parameters<typeof mergeResults>[0], RegExp][] = [
    ['a shard twice', [s1, s2, s3, s2], /s2\/results\.json and .*s2\/results\.json are both shard 2\/3; give each shard once/],
    ['a missing shard', [s1, s3], /shard 2\/3 is missing; give its folder too/],
    ['a different seed', [s1, await save('x2', fakeRun(other, { index: 2, count: 3 })), s3], /seed 99 differs from .*; merge only the shards of one campaign run/],
    ['a different campaign', [s1, await save('y', { ...fakeRun(quick, { index: 2, count: 3 }), campaign: 'nightly' }), s3], /campaign 'nightly' differs/],
    ['different splits', [s1, await save('h', fakeRun(quick, { index: 2, count: 2 }))], /cut 3 and 2 ways/],
    ['an unsharded run with shards', [await save('u', fakeRun(quick, null)), s1], /is an unsharded run, which overlaps any other results/],
    ['nothing', [], /nothing to merge/],
  ];
  for (const [what, inputs, message] of cases) {
    t.throws(() => mergeResults(inputs, opts), { code: 'bad-input', message }, what);
  }
  const overlapping = { ...s2, results: { ...s2.results, cycles: [...s2.results.cycles, s1.results.cycles[0]!] } };
  t.throws(() => mergeResults([s1, overlapping, s3], opts), { code: 'bad-input', message: /appears in more than one shard/ });
  await t.rejects(loadResults(join(dir, 'nowhere')), { code: 'bad-input', message: /cannot read campaign results \(ENOENT\)/ });
  await writeResultsFolder(join(dir, 'bad'), fakeRun(quick, null));
  const written = JSON.parse(await readFile(join(dir, 'bad', 'results.json'), 'utf8')) as object;
  await writeFile(join(dir, 'bad', 'results.json'), JSON.stringify({ ...written, version: 3 }));
  await t.rejects(loadResults(join(dir, 'bad')), { code: 'bad-input', message: /not a campaign's results \(version: / });
});

t.test('a shard that never finished makes the merged run a rig error, not a pass', async (t) => {
  const quick = await loadCampaign('campaigns/quick.yml');
  const shard = (index: number) => ({ dir: '/r', path: `/r/${index}/results.json`, results: fakeRun(quick, { index, count: 2 }) });
  const first = shard(1);
  const cut = { ...first, results: { ...first.results, finishedAt: null, cycles: first.results.cycles.slice(0, 1) } };
  const merged = mergeResults([cut, shard(2)], { outDir: '/out', commandLine: 'rig merge' });
  t.equal(merged.finishedAt, null);
  t.ok(['rig-error', 'fail'].includes(merged.outcome));
  t.ok(merged.scenarios.some((s) => s.cyclesRun < s.cyclesPlanned));
});

t.test('perf pairs merge like cycles: each once, in the unsharded order', async (t) => {
  const campaign = await loadCampaign('campaigns/quick.yml');
  const summary = { reads: 0, writes: 600, transactions: 150, seconds: 60, readQps: 0, writeQps: 10, tps: 2.5, p99Ms: 9, errors: 0 };
  const pair = (scenario: string, cycle: number, error: string | null = null) => ({
    id: `${scenario}-${cycle}`, scenario, cycle, seed: cycle, on: error ? null : summary, off: error ? null : summary, error,
    versions: { server: 'mariadbd 10.11', sysbench: 'sysbench 1.0.20' },
  });
  const shard = (index: number, perf: ReturnType<typeof pair>[]) => {
    const results = { ...fakeRun(campaign, { index, count: 2 }), perf };
    return { dir: `/r/s${index}`, path: `/r/s${index}/results.json`, results };
  };
  const name = campaign.scenarios[0]!.settings.name;
  const merged = mergeResults([shard(2, [pair(name, 2)]), shard(1, [pair(name, 3), pair(name, 1)])], { outDir: '/r/m', commandLine: 'rig merge' });
  t.same(merged.perf!.map((p) => p.id), [1, 2, 3].map((c) => `${name}-${c}`));
  t.throws(() => mergeResults([shard(1, [pair(name, 1)]), shard(2, [pair(name, 1)])], { outDir: '/r/m', commandLine: 'rig merge' }), /perf pair .* appears in more than one shard/);
  t.equal(mergeResults([{ ...shard(1, []), results: fakeRun(campaign, { index: 1, count: 2 }) }, { ...shard(2, []), results: fakeRun(campaign, { index: 2, count: 2 }) }], { outDir: '/r/m', commandLine: 'rig merge' }).perf, undefined, 'no perf in, none out');
});

t.test('a merged perf run with a shard short of its pairs is a rig error, as missing cycles are', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'perf-only.yml');
  await writeFile(file, 'name: perf-only\nseed: 3\nscenarios:\n  - {name: pa, mode: perf, cycles: 3, seconds: 5}\n  - {name: pb, mode: perf, cycles: 2, seconds: 5}\n');
  const campaign = await loadCampaign(file);
  const shard = (index: number) => ({ dir: `/r/s${index}`, path: `/r/s${index}/results.json`, results: fakeRun(campaign, { index, count: 2 }) });
  const whole = mergeResults([shard(1), shard(2)], { outDir: '/r/m', commandLine: 'rig merge' });
  t.equal(whole.outcome, 'pass', 'every pair there: pass');
  t.same(summaryLines(whole).slice(0, 2), ['pa: perf (3/3 pairs; doublewrite off / on write QPS 1.40 (1.40-1.40))', 'pb: perf (2/2 pairs; doublewrite off / on write QPS 1.40 (1.40-1.40))'], 'the summary gives each perf scenario its pairs and ratio');
  t.same(whole.scenarios.map((s) => [s.name, s.pairsPlanned]), [['pa', 3], ['pb', 2]], 'the planned pairs summed over the shards');
  const first = shard(1);
  const short = { ...first, results: { ...first.results, perf: first.results.perf!.slice(1) } };
  const merged = mergeResults([short, shard(2)], { outDir: '/r/m', commandLine: 'rig merge' });
  t.equal(merged.outcome, 'rig-error');
  t.equal(summaryLines(merged)[0], 'pa: perf (2/3 pairs; doublewrite off / on write QPS 1.40 (1.40-1.40))');
  t.equal(merged.perf!.length, 4);
});
