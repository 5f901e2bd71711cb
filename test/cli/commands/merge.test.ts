/**
 * `rig merge`'s OUT: a folder it may write (new, empty or an earlier run's, none of the shards),
 * and interrupted: it stops where it is, leaves no file of its own, and removes the OUT folder it
 * made (one it did not make stays). The merge itself is test/results/merge.test.ts and, of a real
 * campaign's shards, test/campaign/run-campaign.int.test.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { generateShard, writeCampaign } from '../../../bench/synthetic-campaign.js';
import { ensureBuilt, rig, showedWhileRunning } from '../../fixtures/rig-cli.js';

const dir = t.testdir({});
const shards = [1, 2].map((index) => join(dir, `shard-${index}`));

t.before(async () => {
  await ensureBuilt();
  for (const [i, shard] of shards.entries()) {
    await writeCampaign(shard, await generateShard({ cycles: 6000, preset: 'torn-pages', shard: { index: i + 1, count: 2 } }));
  }
});

t.test('SIGINT while the records are merged: no OUT, no temporary file', async (t) => {
  const out = join(dir, 'merged');
  const child = rig(['merge', out, ...shards]);
  // the records go to a temporary file in OUT, renamed into place once all are written
  t.ok(await showedWhileRunning(child, out, '.cycles.jsonl.'), 'the records file was being written');
  child.kill('SIGINT');
  const ended = await child;
  t.equal(ended.signal, 'SIGINT', `the run ends by the re-raised signal (${ended.stderr.trim()})`);
  t.equal(ended.stdout, '', 'no summary of a merge that did not finish');
  t.notOk(existsSync(out), 'the OUT it made, removed');
  t.same(readdirSync(dir).sort(), ['shard-1', 'shard-2'], 'nothing beside the shards');
});

t.test("an OUT that was there stays, with none of the merge's files in it", async (t) => {
  const out = join(dir, 'kept');
  mkdirSync(out);
  const child = rig(['merge', out, ...shards]);
  t.ok(await showedWhileRunning(child, out, '.cycles.jsonl.'), 'the records file was being written');
  child.kill('SIGINT');
  const ended = await child;
  t.equal(ended.signal, 'SIGINT');
  t.ok(existsSync(out), 'the folder stays');
  t.same(readdirSync(out), [], 'no temporary file, and no file the merge finished before it stopped');
});

t.test('an OUT that holds something else, or is a shard, is refused untouched', async (t) => {
  const other = join(dir, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'notes.txt'), 'mine');
  const refused = await rig(['merge', other, ...shards]);
  t.equal(refused.exitCode, 2);
  t.equal(refused.stderr, `rig: OUT ${other} is not empty and holds no campaign results; give a new or empty folder, or an earlier run's folder`);
  t.same(readdirSync(other), ['notes.txt']);
  const before = readFileSync(join(shards[0]!, 'results.json'), 'utf8');
  const intoShard = await rig(['merge', shards[0]!, ...shards]);
  t.equal(intoShard.exitCode, 2);
  t.equal(intoShard.stderr, `rig: OUT ${shards[0]} is also a shard's folder; give the merged results a folder of their own`);
  t.equal(readFileSync(join(shards[0]!, 'results.json'), 'utf8'), before, "the shard's results untouched");
});

t.test("an earlier run's OUT: kept whole when the merge is refused, replaced whole when it is not", async (t) => {
  const small = [1, 2].map((index) => join(dir, `small-${index}`));
  for (const [i, shard] of small.entries()) {
    await writeCampaign(shard, await generateShard({ cycles: 10, preset: 'torn-pages', shard: { index: i + 1, count: 2 } }));
  }
  const earlier = join(dir, 'earlier');
  mkdirSync(join(earlier, 'cycles', 'c-1'), { recursive: true });
  writeFileSync(join(earlier, 'results.json'), '{}');
  writeFileSync(join(earlier, 'junit.xml'), 'old');
  const refused = await rig(['merge', earlier, small[1]!]);
  t.equal(refused.exitCode, 2, refused.stderr);
  t.match(refused.stderr, /shard 1\/2 is missing/);
  t.same(readdirSync(earlier).sort(), ['cycles', 'junit.xml', 'results.json'], 'the earlier run as it was');
  t.equal(readFileSync(join(earlier, 'junit.xml'), 'utf8'), 'old');
  const merged = await rig(['merge', earlier, ...small]);
  t.equal(merged.stderr, '');
  t.ok(merged.exitCode === 0 || merged.exitCode === 1, `merged (exit ${merged.exitCode})`);
  t.same(readdirSync(earlier).sort(), ['cycles.jsonl', 'index-cycles', 'index.html', 'junit.xml', 'results.json'], "the earlier run's cycles gone");
  t.match(readFileSync(join(earlier, 'junit.xml'), 'utf8'), /^<\?xml/);
  t.equal(JSON.parse(readFileSync(join(earlier, 'results.json'), 'utf8')).cycles.count, 10, 'the ten cycles of the two shards');
});
